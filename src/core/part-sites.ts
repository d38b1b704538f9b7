/**
 * The places of a request the deeper cut may stub besides tool results (docs/rescue.md "The
 * deeper cut"): every string inside a tool call's input, and every text of the model's. Each API
 * lists its own (its dialect's `partSites`): the Messages API's here, the OpenAI two's in
 * openai/part-sites.ts. A place is a string token at a path inside one block of the request's
 * index; which of them an epoch takes is the plan's business (epochs/tool-results/plan-parts.ts).
 */
import type { BlockPart, PathStep } from './epoch-types.js';
import { keyIs, stringsIn, valueAtPath } from './json-paths.js';
import { scanObject, scanValue } from './json-scan.js';
import type { Span, TranscriptIndex } from './transcript-index-types.js';

/** One place a part could be taken from. */
export interface PartSite {
  readonly part: BlockPart;
  readonly messageIndex: number;
  readonly blockIndex: number;
  /** The call's id for a tool input; empty for a text. */
  readonly id: string;
  /** The string's path inside its block object. */
  readonly path: readonly PathStep[];
  /** The string token. */
  readonly value: Span;
  /** `text`: the string's text is what a stub stands for; `json`: the string holds JSON text (an OpenAI call's arguments). */
  readonly shape: 'text' | 'json';
  /** The block carries `cache_control`: a breakpoint's block is never taken, as a tool result with one is not. */
  readonly cached: boolean;
}

/** An API's reader of its part sites, in document order. Never throws on a body its index accepted. */
export type PartSiteReader = (body: Uint8Array, index: TranscriptIndex) => PartSite[];

const CACHE_CONTROL = new TextEncoder().encode('cache_control');

/** Whether the block object at `start` has a `cache_control` member of its own. */
export function hasCacheControl(b: Uint8Array, start: number): boolean {
  let found = false;
  scanObject(b, start, 1, (keyStart, keyEnd, valueStart, d) => {
    if (keyIs(b, keyStart, keyEnd, CACHE_CONTROL)) found = true;
    return scanValue(b, valueStart, d);
  });
  return found;
}

/**
 * The Messages API's sites: in each assistant message, every string inside a `tool_use` block's
 * `input` (a Write's `content`, an Edit's `new_string`, a Bash `command`) and each `text` block's
 * text. A message whose content is a string has no block to name and is not listed.
 */
export function messagesPartSites(body: Uint8Array, index: TranscriptIndex): PartSite[] {
  const sites: PartSite[] = [];
  for (const [messageIndex, message] of index.messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [blockIndex, block] of message.blocks.entries()) {
      if (block.type !== 'tool_use' && block.type !== 'text') continue;
      try {
        sites.push(...blockSites(body, messageIndex, blockIndex, block));
      } catch {
        // A block the sites cannot read (a key that is not text) offers none.
      }
    }
  }
  return sites;
}

function blockSites(body: Uint8Array, messageIndex: number, blockIndex: number, block: { type: string; id: string; start: number; end: number }): PartSite[] {
  const cached = hasCacheControl(body, block.start);
  const site = (part: BlockPart, path: readonly PathStep[], value: Span, id: string): PartSite => ({
    part,
    messageIndex,
    blockIndex,
    id,
    path,
    value,
    shape: 'text',
    cached,
  });
  if (block.type === 'text') {
    const value = valueAtPath(body, block.start, ['text']);
    return value !== undefined && body[value.start] === 0x22 ? [site('assistant_text', ['text'], value, '')] : [];
  }
  const input = valueAtPath(body, block.start, ['input']);
  if (input === undefined || body[input.start] !== 0x7b || block.id === '') return [];
  return stringsIn(body, input.start, 1).map((s) => site('tool_input', ['input', ...s.path], s.span, block.id));
}
