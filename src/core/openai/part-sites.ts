/**
 * The deeper cut's places in the OpenAI dialects (core/part-sites.ts has the Messages API's):
 * - Responses: a `function_call` item's `arguments` (JSON text, `json`), a `custom_tool_call`'s
 *   `input` (free text), and the texts of an assistant `message` item (each `output_text` part's
 *   `text`, or a string `content`);
 * - Chat Completions: each `tool_calls` entry's `function.arguments` (`json`), and an assistant
 *   message's `content` (a string, or each `text` part's `text`).
 */
import type { PathStep } from '../epoch-types.js';
import { valueAtPath } from '../json-paths.js';
import { scanArray, scanValue } from '../json-scan.js';
import { hasCacheControl, type PartSite } from '../part-sites.js';
import type { BlockInfo, TranscriptIndex } from '../transcript-index-types.js';
import { readToken } from './index-support.js';

const QUOTE = 0x22;

/** The Responses API's sites, in document order. */
export function responsesPartSites(body: Uint8Array, index: TranscriptIndex): PartSite[] {
  return sitesOf(index, (message, blockIndex, block) => {
    const type = stringAt(body, block.start, ['type']);
    if (type === 'function_call') return callSite(body, message, blockIndex, block, ['arguments'], 'json');
    if (type === 'custom_tool_call') return callSite(body, message, blockIndex, block, ['input'], 'text');
    if ((type === 'message' || type === undefined) && stringAt(body, block.start, ['role']) === 'assistant') {
      return textSites(body, message, blockIndex, block, 'output_text');
    }
    return [];
  });
}

/** The Chat Completions API's sites, in document order. */
export function chatPartSites(body: Uint8Array, index: TranscriptIndex): PartSite[] {
  return sitesOf(index, (message, blockIndex, block) => {
    if (block.type === 'tool_use') return callSite(body, message, blockIndex, block, ['function', 'arguments'], 'json');
    if (blockIndex === 0 && stringAt(body, block.start, ['role']) === 'assistant') return textSites(body, message, blockIndex, block, 'text');
    return [];
  });
}

type BlockSites = (messageIndex: number, blockIndex: number, block: BlockInfo) => PartSite[];

function sitesOf(index: TranscriptIndex, of: BlockSites): PartSite[] {
  const sites: PartSite[] = [];
  for (const [messageIndex, message] of index.messages.entries()) {
    for (const [blockIndex, block] of message.blocks.entries()) {
      try {
        sites.push(...of(messageIndex, blockIndex, block));
      } catch {
        // A block the sites cannot read offers none.
      }
    }
  }
  return sites;
}

function callSite(
  body: Uint8Array,
  messageIndex: number,
  blockIndex: number,
  block: BlockInfo,
  path: readonly PathStep[],
  shape: PartSite['shape'],
): PartSite[] {
  const value = valueAtPath(body, block.start, path);
  if (value === undefined || body[value.start] !== QUOTE || block.id === '') return [];
  return [{ part: 'tool_input', messageIndex, blockIndex, id: block.id, path, value, shape, cached: false }];
}

/** An assistant message's texts: a string `content`, or each part of type `partType`'s `text`. */
function textSites(body: Uint8Array, messageIndex: number, blockIndex: number, block: BlockInfo, partType: string): PartSite[] {
  const content = valueAtPath(body, block.start, ['content']);
  if (content === undefined) return [];
  const site = (path: readonly PathStep[], value: { start: number; end: number }, cached: boolean): PartSite => ({
    part: 'assistant_text',
    messageIndex,
    blockIndex,
    id: '',
    path,
    value,
    shape: 'text',
    cached,
  });
  if (body[content.start] === QUOTE) return [site(['content'], content, false)];
  if (body[content.start] !== 0x5b) return [];
  const sites: PartSite[] = [];
  scanArray(body, content.start, 1, (start, k, d) => {
    const end = scanValue(body, start, d);
    if (body[start] === 0x7b && stringAt(body, start, ['type']) === partType) {
      const text = valueAtPath(body, start, ['text']);
      if (text !== undefined && body[text.start] === QUOTE) sites.push(site(['content', k, 'text'], text, hasCacheControl(body, start)));
    }
    return end;
  });
  return sites;
}

/** The string at `path` inside the object at `start`, when there is one. */
function stringAt(body: Uint8Array, start: number, path: readonly PathStep[]): string | undefined {
  const value = valueAtPath(body, start, path);
  return value === undefined || body[value.start] !== QUOTE ? undefined : readToken(body, value.start, value.end);
}
