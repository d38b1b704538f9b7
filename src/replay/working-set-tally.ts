/**
 * The working set per engine strategy of a replay (docs/shed.md and docs/rescue.md, "The working
 * set"): how many requests the engine held for it (its own `Prepared.hold`, never re-decided
 * here), and how large it grew. Its size is read with the engine's rule (core/epochs/working-set.ts)
 * from the body as the client sent it and the conversation's frozen texts; a body that names no
 * call bringing stored text back is skipped without indexing, so most requests cost one byte scan.
 */
import { frozenShas, indexTranscript, NO_ITEMS, NO_WORKING_SET, RESTORE_TOOL_NAME, shasFrozenBy, workingSetOf, type WorkingSet } from '../core/index.js';
import { latchHoldOf, type Prepared } from '../rescue/index.js';

/** One engine strategy's working set over a session (the report's `workingSet.rescue` and `.shed`). */
export interface WorkingSetFigure {
  /** Requests held as a thrash (`working_set_thrash`). */
  readonly thrashHolds: number;
  /** Requests held because the working set did not fit the window (`working_set_exceeds_window`). */
  readonly exceedsWindowHolds: number;
  /** The largest working set of a request: its answers' bytes, and those in estimated tokens. */
  readonly peakBytes: number;
  readonly peakTokens: number;
  /** Requests whose working set held at least one answer. */
  readonly requestsWithWorkingSet: number;
}

/** The endings of the file names a call that brings stored text back reads (core/shed/restore-call.ts): `<sha256>.txt`, `.md`, `.json`. */
const STORED_EXTS = ['.txt', '.md', '.json'] as const;
const HEX = /^[0-9a-fA-F]{64}$/;

/**
 * Whether the body names the restore tool or a stored file (64 hex digits and a stored
 * extension). Byte searches for the fixed strings, then a look at the 64 bytes before each
 * extension: a regular expression over the whole body tried its hex class at every offset, a
 * fifth of a long replay's time.
 */
export function mayRestore(body: Uint8Array): boolean {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.includes(RESTORE_TOOL_NAME)) return true;
  for (const ext of STORED_EXTS) {
    for (let at = bytes.indexOf(ext, 64); at >= 0; at = bytes.indexOf(ext, at + 1)) {
      if (HEX.test(bytes.toString('latin1', at - 64, at))) return true;
    }
  }
  return false;
}

/** Adds one strategy's working set up, request by request. */
export class WorkingSetTally {
  #thrash = 0;
  #exceeds = 0;
  #peakBytes = 0;
  #peakTokens = 0;
  #requests = 0;

  /** Counts one prepared request: its hold, and its working set, at `tokensPerByte`. */
  add(body: Uint8Array, prepared: Prepared, tokensPerByte: number): void {
    const hold = latchHoldOf(prepared);
    if (hold?.reason === 'working_set_thrash') this.#thrash++;
    if (hold?.reason === 'working_set_exceeds_window') this.#exceeds++;
    const set = workingSetOfBody(body, prepared);
    if (set.calls.size === 0) return;
    this.#requests++;
    if (set.bytes > this.#peakBytes) {
      this.#peakBytes = set.bytes;
      this.#peakTokens = Math.round(set.bytes * tokensPerByte);
    }
  }

  figure(): WorkingSetFigure {
    return {
      thrashHolds: this.#thrash,
      exceedsWindowHolds: this.#exceeds,
      peakBytes: this.#peakBytes,
      peakTokens: this.#peakTokens,
      requestsWithWorkingSet: this.#requests,
    };
  }
}

/** Whether a figure has anything to say. */
function hasWorkingSet(figure: WorkingSetFigure): boolean {
  return figure.thrashHolds > 0 || figure.exceedsWindowHolds > 0 || figure.requestsWithWorkingSet > 0;
}

/** The text report's one note on both engines' working sets, when either held for it or had one; none otherwise. */
export function workingSetNote(sets: Readonly<Record<'rescue' | 'shed', WorkingSetFigure>> | undefined): string[] {
  if (sets === undefined || !(hasWorkingSet(sets.rescue) || hasWorkingSet(sets.shed))) return [];
  const one = (name: string, f: WorkingSetFigure): string =>
    `${name} ${f.thrashHolds} thrash / ${f.exceedsWindowHolds} over-window hold(s), peak ${(f.peakBytes / 1024).toFixed(0)} KiB (~${f.peakTokens.toLocaleString('en-US')} tokens) on ${f.requestsWithWorkingSet} request(s) with one`;
  return [`  working set: ${one('rescue', sets.rescue)}; ${one('shed', sets.shed)}`];
}

/**
 * The working set of the body the client sent, against what the conversation froze (after this
 * request: an epoch latched on it froze nothing the body could have read back yet).
 */
function workingSetOfBody(body: Uint8Array, prepared: Prepared): WorkingSet {
  if (!mayRestore(body)) return NO_WORKING_SET;
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') return NO_WORKING_SET;
  const entry = prepared.conversation;
  const latest = entry?.record?.epochs.at(-1);
  try {
    return workingSetOf(body, indexed.index, frozenShas(entry?.items ?? NO_ITEMS), new Set(latest === undefined ? [] : shasFrozenBy(latest)));
  } catch {
    return NO_WORKING_SET;
  }
}
