/** The elision plan: which tool_results an epoch latched on this request would freeze. */
import { blockText, bytesEqual, isCanonicalContent } from './block-text.js';
import type { ElisionPolicy, FrozenBlock } from './epoch-types.js';
import { encodeJsonString } from './json-string.js';
import { isSystemMessage, lastTurnIndex } from './last-turn.js';
import type { Sha256 } from './ports.js';
import { DROP_STUB_PREFIX, STUB_PREFIX } from './stub-paths.js';
import type { BlockInfo, ToolResultInfo, TranscriptIndex } from './transcript-index-types.js';

export const DEFAULT_KEEP_RECENT = 6;
export const DEFAULT_MIN_ELIDE_BYTES = 1024;
export const DEFAULT_POLICY: ElisionPolicy = { keepRecent: DEFAULT_KEEP_RECENT, minBytes: DEFAULT_MIN_ELIDE_BYTES };
/**
 * Recorded with every epoch; bump the version when eligibility changes meaning.
 * 1: docs/design.md "Eligible block" without the read-back. 2: also keeps in view a tool result that reads an elided file back.
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

/** The eligible blocks of this request (docs/design.md "Eligible block"), oldest first. */
export function planElision(body: Uint8Array, index: TranscriptIndex, policy: ElisionPolicy, sha256: Sha256, options: PlanOptions = {}): PlannedBlock[] {
  const planned: PlannedBlock[] = [];
  const isReadBack = readBackTest(body, index, options.elidedDir);
  for (const block of index.toolResults) {
    if (!isOldEnough(block, index, policy)) continue;
    if (isReadBack(block.toolUseId)) continue;
    const text = elidableText(body, block, policy);
    if (text === undefined) continue;
    const json = body.subarray(block.content.start, block.content.end);
    const jsonSha256 = sha256(json);
    const base = { ordinal: block.ordinal, toolUseId: block.toolUseId, bytes: text.length, sha256: sha256(text), jsonBytes: json.length, jsonSha256, text };
    // The text file alone rebuilds canonical JSON; anything else keeps its exact bytes too.
    planned.push(isCanonicalContent(body, block, text) ? base : { ...base, rawSha256: jsonSha256, raw: json.slice() });
  }
  return planned;
}

/**
 * Whether the block's place allows eliding it: older than the policy's recent ones, not in the
 * last turn (the last message, or, when system messages follow it, the last user or assistant
 * message and those system messages: core/last-turn.ts), and not in a system message.
 */
export function isOldEnough(block: ToolResultInfo, index: TranscriptIndex, policy: ElisionPolicy): boolean {
  if (block.ordinal >= index.toolResults.length - policy.keepRecent) return false;
  const message = index.messages[block.messageIndex];
  // A tool result belongs in a user message; the client's own system text is never ours to elide.
  if (message === undefined || isSystemMessage(message)) return false;
  return block.messageIndex < lastTurnIndex(index.messages);
}

/**
 * The block's text when its own bytes allow eliding it (text only, no `cache_control`, over the
 * policy's size, not a placeholder or a stub), else `undefined`. Reads nothing outside the
 * block, which is what lets core/eligible-blocks.ts keep the verdict of a block a later request shares.
 */
export function elidableText(body: Uint8Array, block: ToolResultInfo, policy: ElisionPolicy): Uint8Array | undefined {
  if (block.hasCacheControl || !block.textOnly) return undefined;
  const text = blockText(body, block);
  if (text === undefined || text.length <= policy.minBytes || isPlaceholder(text)) return undefined;
  return text;
}

/** The elided directory's path as it appears inside JSON (quotes and backslashes escaped); empty when none. */
export function readBackNeedle(elidedDir: string | undefined): Uint8Array {
  if (elidedDir === undefined || elidedDir === '') return new Uint8Array(0);
  const token = encodeJsonString(new TextEncoder().encode(elidedDir));
  return token.subarray(1, token.length - 1);
}

/** Whether a tool_use block's bytes name the elided directory (its input reads an elided file back). */
export function namesElidedDir(body: Uint8Array, block: BlockInfo, needle: Uint8Array): boolean {
  return needle.length > 0 && block.type === 'tool_use' && indexOfBytes(body.subarray(block.start, block.end), needle) >= 0;
}

/** Which tool_use ids name the elided directory in their block (their input). */
function readBackTest(body: Uint8Array, index: TranscriptIndex, elidedDir: string | undefined): (toolUseId: string) => boolean {
  const needle = readBackNeedle(elidedDir);
  if (needle.length === 0) return () => false;
  const readers = new Set<string>();
  for (const message of index.messages) {
    for (const block of message.blocks) {
      if (namesElidedDir(body, block, needle)) readers.add(block.id);
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
