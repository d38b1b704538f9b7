/** The elision plan: which tool_results an epoch latched on this request would freeze. */
import { blockText, bytesEqual, isCanonicalContent } from './block-text.js';
import type { ElisionPolicy, FrozenBlock } from './epoch-types.js';
import { encodeJsonString } from './json-string.js';
import type { Sha256 } from './ports.js';
import { DROP_STUB_PREFIX, STUB_PREFIX } from './stub-paths.js';
import type { TranscriptIndex } from './transcript-index.js';

export const DEFAULT_KEEP_RECENT = 6;
export const DEFAULT_MIN_ELIDE_BYTES = 1024;
export const DEFAULT_POLICY: ElisionPolicy = { keepRecent: DEFAULT_KEEP_RECENT, minBytes: DEFAULT_MIN_ELIDE_BYTES };
/**
 * Recorded with every epoch; bump the version when eligibility changes meaning.
 * 1: DESIGN.md's rule. 2: also keeps in view a tool result that reads an elided file back.
 */
export const POLICY_NAME = 'elide-old-tool-results';
export const POLICY_VERSION = 2;

/** What Claude Code itself writes in place of a tool result it cleared. */
export const CLIENT_CLEARED_PLACEHOLDER = '[Old tool result content cleared]';
const PLACEHOLDER_TEXT = new TextEncoder().encode(CLIENT_CLEARED_PLACEHOLDER);
const STUB_PREFIX_TEXTS = [STUB_PREFIX, DROP_STUB_PREFIX].map((prefix) => new TextEncoder().encode(prefix));

/** A block the plan would elide, with the bytes the elided files must hold. */
export interface PlannedBlock extends FrozenBlock {
  /** The text: the content of `<sha256>.txt`. */
  readonly text: Uint8Array;
  /** The original JSON of the content value, when the text alone cannot rebuild it. */
  readonly raw?: Uint8Array;
}

/** What the plan may be told besides the policy. */
export interface PlanOptions {
  /**
   * The elided directory's path. A tool result whose tool_use names it is the agent reading an
   * elided file back: it stays in view, or the next epoch would elide it again into a second
   * copy (with the reading tool's line numbers on top).
   */
  readonly elidedDir?: string;
}

/** The eligible blocks of this request (DESIGN.md "Eligible block"), oldest first. */
export function planElision(body: Uint8Array, index: TranscriptIndex, policy: ElisionPolicy, sha256: Sha256, options: PlanOptions = {}): PlannedBlock[] {
  const planned: PlannedBlock[] = [];
  const newestExempt = index.toolResults.length - policy.keepRecent;
  const lastMessage = index.messages.length - 1;
  const isReadBack = readBackTest(body, index, options.elidedDir);
  for (const block of index.toolResults) {
    if (block.ordinal >= newestExempt) break;
    if (block.messageIndex === lastMessage || block.hasCacheControl || !block.textOnly) continue;
    if (isReadBack(block.toolUseId)) continue;
    const text = blockText(body, block);
    if (text === undefined || text.length <= policy.minBytes || isPlaceholder(text)) continue;
    const json = body.subarray(block.content.start, block.content.end);
    const jsonSha256 = sha256(json);
    const base = { ordinal: block.ordinal, toolUseId: block.toolUseId, bytes: text.length, sha256: sha256(text), jsonBytes: json.length, jsonSha256, text };
    // The text file alone rebuilds canonical JSON; anything else keeps its exact bytes too.
    planned.push(isCanonicalContent(body, block, text) ? base : { ...base, rawSha256: jsonSha256, raw: json.slice() });
  }
  return planned;
}

/** Which tool_use ids name the elided directory in their block (their input). */
function readBackTest(body: Uint8Array, index: TranscriptIndex, elidedDir: string | undefined): (toolUseId: string) => boolean {
  if (elidedDir === undefined || elidedDir === '') return () => false;
  // The input is JSON: look for the path as JSON.stringify spells it (quotes and backslashes escaped).
  const token = encodeJsonString(new TextEncoder().encode(elidedDir));
  const needle = token.subarray(1, token.length - 1);
  const readers = new Set<string>();
  for (const message of index.messages) {
    for (const block of message.blocks) {
      if (block.type === 'tool_use' && indexOfBytes(body.subarray(block.start, block.end), needle) >= 0) readers.add(block.id);
    }
  }
  return (toolUseId) => readers.has(toolUseId);
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  if (first === undefined) return 0;
  for (let i = haystack.indexOf(first); i >= 0 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** The client's placeholder or a ctxshed stub, however the JSON spelled it (judged on the text). */
function isPlaceholder(text: Uint8Array): boolean {
  return bytesEqual(text, PLACEHOLDER_TEXT) || STUB_PREFIX_TEXTS.some((prefix) => startsWith(text, prefix));
}

function startsWith(text: Uint8Array, prefix: Uint8Array): boolean {
  return text.length >= prefix.length && bytesEqual(text.subarray(0, prefix.length), prefix);
}

/** The frozen record of a planned block (what an epoch stores: no text). */
export function freezeBlock(block: PlannedBlock): FrozenBlock {
  const { ordinal, toolUseId, bytes, sha256, jsonBytes, jsonSha256, rawSha256 } = block;
  const frozen = { ordinal, toolUseId, bytes, sha256, jsonBytes, jsonSha256 };
  return rawSha256 === undefined ? frozen : { ...frozen, rawSha256 };
}
