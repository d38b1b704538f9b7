/**
 * One answer that brought a stored text back (core/shed/restore-call.ts), read for comparison with
 * the others (docs/shed.md, "A text is carried once"): which original it shows and what of it,
 * with the header (`restore`) or the line numbers (Claude Code's Read) taken off, so that two
 * copies of the same text compare equal whatever brought them back. Pure.
 */
import { stringField, type ToolCall } from '../read-tool-calls.js';
import { RESTORE_TOOL_NAME } from '../detect-refaults.js';

/** What of an original one answer shows. */
export interface BroughtBackCopy {
  readonly ordinal: number;
  readonly toolUseId: string;
  readonly messageIndex: number;
  /** The original it brought back. */
  readonly sha256: string;
  readonly via: 'restore' | 'read';
  /** The text it shows of the original: the lines, or the characters, as they stand in it. */
  readonly text: string;
  /**
   * Where that text lies in the original: characters [start, end) of a restore's text (its header
   * says), or the lines start to end - 1 of a Read (1-based, its numbers say).
   */
  readonly start: number;
  readonly end: number;
  /**
   * What the answer says before the text, which a pointer keeps: a restore's header line (which
   * characters, where the next page starts) and its line break, or the notice Claude Code puts
   * before a cut Read (where the next page starts); '' when none.
   */
  readonly lead: string;
}

/** The first line of a restore answer that gives text (mcp/restore-tool.ts). */
const RESTORE_HEADER = /^\[ctxshed restore: [^\n]*(?:follows this line|follow this line)[^\n]*\]$/;
const RESTORE_PART = /characters (\d+) to (\d+) of (\d+)/;
/** A notice Claude Code puts before (2.1.197's "[Truncated: PARTIAL view ...]") or after a Read's lines. */
const LEADING_REMINDER = /^<system-reminder>[\s\S]*?<\/system-reminder>\n+/;
const TRAILING_REMINDER = /\n+<system-reminder>[\s\S]*?<\/system-reminder>\s*$/;
/** One line of a Read: its number, a tab (2.1.x) or an arrow (earlier clients), the line. */
const READ_LINE = /^ *(\d+)(?:\t|\u2192)(.*)$/;

/**
 * The copy an answer is, or `undefined` when it is none this module compares: not a restore or a
 * Read of a stored file, an error, or a text whose shape is not the one a restore or Read gives.
 */
export function copyOf(
  call: ToolCall,
  at: { readonly ordinal: number; readonly messageIndex: number; readonly isError: boolean },
  sha256: string,
  text: string,
): BroughtBackCopy | undefined {
  if (at.isError) return undefined;
  const base = { ordinal: at.ordinal, toolUseId: call.id, messageIndex: at.messageIndex, sha256 };
  if (call.name === RESTORE_TOOL_NAME) return restoreCopy(base, text);
  if (call.name === 'Read' && stringField(call, 'file_path') !== undefined) return readCopy(base, text);
  return undefined;
}

type Base = Pick<BroughtBackCopy, 'ordinal' | 'toolUseId' | 'messageIndex' | 'sha256'>;

function restoreCopy(base: Base, text: string): BroughtBackCopy | undefined {
  const cut = text.indexOf('\n');
  if (cut < 0) return undefined;
  const header = text.slice(0, cut);
  if (!RESTORE_HEADER.test(header)) return undefined;
  const page = text.slice(cut + 1);
  const part = RESTORE_PART.exec(header);
  const start = part === null ? 0 : Number(part[1]);
  const end = part === null ? page.length : Number(part[2]);
  // A header that does not agree with what follows it is no restore's.
  if (end - start !== page.length) return undefined;
  return { ...base, via: 'restore', text: page, start, end, lead: text.slice(0, cut + 1) };
}

function readCopy(base: Base, text: string): BroughtBackCopy | undefined {
  const lead = LEADING_REMINDER.exec(text)?.[0] ?? '';
  const lines = text.slice(lead.length).replace(TRAILING_REMINDER, '').split('\n');
  const shown: string[] = [];
  let first = -1;
  for (const [i, line] of lines.entries()) {
    const m = READ_LINE.exec(line);
    if (m === null) return undefined;
    const n = Number(m[1]);
    if (i === 0) first = n;
    else if (n !== first + i) return undefined;
    shown.push(m[2]!);
  }
  if (first < 1) return undefined;
  return { ...base, via: 'read', text: shown.join('\n'), start: first, end: first + shown.length, lead };
}
