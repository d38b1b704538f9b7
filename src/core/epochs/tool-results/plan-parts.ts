/**
 * The deeper cut's plan (docs/rescue.md "The deeper cut"): which parts besides tool results an
 * epoch may take from this request. A part is eligible when the policy's `deep` names its kind and
 * - it lies before the recent turns: before the call answered by the oldest of the `keepRecent`
 *   newest tool results, and never in the last turn nor in a system message;
 * - its block carries no `cache_control` (a breakpoint's block stays as the client sent it);
 * - its text is over the part's floor (`inputMinBytes`, `textMinBytes`) and is not a ctxshed stub;
 * - a tool input is not a call that reads an elided file back (eliding it would hide how the
 *   model got the text back), and JSON text (an OpenAI call's arguments) holds at least one string
 *   over the floor: those strings are what its stub replaces, every key and other value stays.
 * Each eligible part carries what its elided file must hold (its text) and, when the string's
 * bytes are not the canonical encoding of that text, the exact bytes too, as a tool result does.
 */
import { bytesEqual } from '../../block-text.js';
import type { ElisionPolicy, FrozenBlock, PartPlaceFields, PathStep } from '../../epoch-types.js';
import { stringsIn } from '../../json-paths.js';
import { scanDocument } from '../../json-scan.js';
import { decodeJsonString, encodeJsonString } from '../../json-string.js';
import { describeInput } from '../../labels/describe-call.js';
import { mainInputOf } from '../../labels/main-input.js';
import { isSystemMessage, lastTurnIndex } from '../../last-turn.js';
import type { PartSite, PartSiteReader } from '../../part-sites.js';
import { startsLikePartStub } from '../../part-stub.js';
import { namesElidedDir, type PlannedBlock, readBackNeedle } from '../../plan-elision.js';
import type { Sha256 } from '../../ports.js';
import { DROP_STUB_PREFIX, STUB_PREFIX } from '../../stub-paths.js';
import type { TranscriptIndex } from '../../transcript-index-types.js';
import type { CallReader } from '../working-set.js';

/** What the parts' plan reads besides the body. */
export interface PartsPlanInput {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly policy: ElisionPolicy;
  /** The API's part sites (its dialect's `partSites`); absent: the API offers none. */
  readonly readSites?: PartSiteReader | undefined;
  /** The API's calls, for each tool input's tool and main input; absent: none named. */
  readonly readCalls?: CallReader | undefined;
  readonly elidedDir?: string | undefined;
  /** ctxshed's `restore` tool is offered: a stub names it as the way back. */
  readonly restoreTool?: boolean | undefined;
}

/** An eligible part before hashing: its frozen fields but the hashes, its text and its token. */
export interface EligiblePart extends PartPlaceFields {
  readonly ordinal: number;
  /** The text's UTF-8 bytes: the elided file's size, what the decision weighs. */
  readonly bytes: number;
  readonly site: PartSite;
  readonly text: Uint8Array;
  readonly within?: readonly (readonly PathStep[])[];
  readonly tool?: string;
  readonly input?: string;
}

const STUB_TEXTS = [STUB_PREFIX, DROP_STUB_PREFIX].map((p) => new TextEncoder().encode(p));

/** The eligible parts of this request, in document order, unhashed (what the decision weighs). */
export function eligibleParts(input: PartsPlanInput): EligiblePart[] {
  const { body, index, policy } = input;
  const deep = policy.deep;
  if (deep === undefined || deep.parts.length === 0 || input.readSites === undefined) return [];
  const before = recentFrom(index, policy.keepRecent);
  const needle = readBackNeedle(input.elidedDir);
  const calls = input.readCalls?.(body, index);
  const ordinals = new Map<string, number>();
  const parts: EligiblePart[] = [];
  for (const site of input.readSites(body, index)) {
    const ordinal = ordinals.get(site.part) ?? 0;
    ordinals.set(site.part, ordinal + 1);
    if (!deep.parts.includes(site.part) || site.cached || site.messageIndex >= before) continue;
    const message = index.messages[site.messageIndex]!;
    if (isSystemMessage(message)) continue;
    const floor = site.part === 'tool_input' ? deep.inputMinBytes : deep.textMinBytes;
    const text = decodeJsonString(body, site.value.start, site.value.end);
    if (text === undefined || text.length <= floor || isStubText(text)) continue;
    const block = message.blocks[site.blockIndex]!;
    if (site.part === 'tool_input' && namesElidedDir(body, block, needle)) continue;
    const within = site.shape === 'json' ? stringsOver(text, floor) : undefined;
    if (within !== undefined && within.length === 0) continue;
    const base = { ordinal, bytes: text.length, part: site.part, messageIndex: site.messageIndex, blockIndex: site.blockIndex, path: site.path };
    const call = site.part === 'tool_input' ? calls?.get(site.id) : undefined;
    const main = call === undefined ? undefined : mainInputOf(call);
    // A main input over the floor is itself taken: the stub does not quote what it takes out.
    const quoted = main !== undefined && new TextEncoder().encode(main).length <= floor ? describeInput(main) : '';
    parts.push({
      ...base,
      site,
      text,
      ...(within === undefined ? {} : { within }),
      ...(site.part === 'tool_input' ? { tool: call?.name ?? 'unknown', input: quoted } : {}),
    });
  }
  return parts;
}

/** The eligible parts with their hashes and files: the plan an epoch freezes. */
export function planParts(input: PartsPlanInput, sha256: Sha256): PlannedBlock[] {
  return eligibleParts(input).map((p) => plannedOf(input.body, p, sha256, input.restoreTool === true));
}

function plannedOf(body: Uint8Array, p: EligiblePart, sha256: Sha256, restoreTool: boolean): PlannedBlock {
  const token = body.subarray(p.site.value.start, p.site.value.end);
  const jsonSha256 = sha256(token);
  const frozen: FrozenBlock = {
    ordinal: p.ordinal,
    toolUseId: p.site.id,
    bytes: p.text.length,
    sha256: sha256(p.text),
    jsonBytes: token.length,
    jsonSha256,
    ...(p.tool === undefined ? {} : { tool: p.tool, input: p.input ?? '' }),
    refetch: restoreTool ? 'restore' : 'elided-file',
    part: p.site.part,
    messageIndex: p.site.messageIndex,
    blockIndex: p.site.blockIndex,
    path: p.site.path,
    ...(p.within === undefined ? {} : { within: p.within }),
  };
  // The text file alone rebuilds a canonical token; anything else keeps its exact bytes too.
  const canonical = token.indexOf(0x5c) < 0 || bytesEqual(token, encodeJsonString(p.text));
  return canonical ? { ...frozen, text: p.text } : { ...frozen, rawSha256: jsonSha256, text: p.text, raw: token.slice() };
}

/**
 * The first message the recent turns hold: the one with the call answered by the oldest of the
 * `keepRecent` newest tool results (the whole last turn when none is kept), never past the last turn.
 */
export function recentFrom(index: TranscriptIndex, keepRecent: number): number {
  const last = lastTurnIndex(index.messages);
  const results = index.toolResults;
  if (keepRecent <= 0 || results.length === 0) return last;
  const oldest = results[Math.max(0, results.length - keepRecent)]!;
  const callAt = index.messages.findIndex((m, i) => i < oldest.messageIndex && m.blocks.some((b) => b.type === 'tool_use' && b.id === oldest.toolUseId));
  return Math.min(last, callAt >= 0 ? callAt : oldest.messageIndex);
}

// The strings of JSON text over the floor, by path; empty when the text is not a JSON object.
function stringsOver(text: Uint8Array, floor: number): (readonly PathStep[])[] {
  try {
    // The whole text must be one JSON object, as the API may parse it: nothing else is taken.
    const root = scanDocument(text).start;
    if (text[root] !== 0x7b) return [];
    return stringsIn(text, root)
      .filter((s) => (decodeJsonString(text, s.span.start, s.span.end)?.length ?? 0) > floor)
      .map((s) => s.path);
  } catch {
    return [];
  }
}

function isStubText(text: Uint8Array): boolean {
  return startsLikePartStub(text) || STUB_TEXTS.some((prefix) => text.length >= prefix.length && bytesEqual(text.subarray(0, prefix.length), prefix));
}
