/** One content block of a message, indexed (transcript-index.ts); a tool_result is also listed among the tool results. */
import { scanObject, scanString, scanValue } from '../json-scan.js';
import { ShapeError } from './index-shape-error.js';
import { readKey, readStringValue } from './index-strings.js';
import { indexToolResultContent } from './index-tool-result-content.js';
import type { BlockInfo, Span, ToolResultContent, ToolResultInfo } from '../transcript-index-types.js';

/** Indexes the block at `start` of message `messageIndex` into `blocks` (and `toolResults`); returns its end. */
export function indexBlock(
  b: Uint8Array,
  start: number,
  depth: number,
  messageIndex: number,
  blockIndex: number,
  blocks: BlockInfo[],
  toolResults: ToolResultInfo[],
): number {
  if (b[start] !== 0x7b) throw new ShapeError('unknown_shape', `message ${messageIndex} block ${blockIndex} is not an object`);
  const where = `message ${messageIndex} block ${blockIndex}`;
  let seen = 0;
  let type: string | undefined;
  let id = '';
  let toolUseId: string | undefined;
  let content: ToolResultContent = { start: -1, end: -1, kind: 'absent', texts: [] };
  let contentTextOnly = true;
  let contentCacheControl = false;
  let isError = false;
  let hasCacheControl = false;
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readKey(b, keyStart, keyEnd);
    seen = markWatchedKey(seen, key, where);
    switch (key) {
      case 'type':
        type = readStringValue(b, valueStart, `${where} type`);
        return scanString(b, valueStart);
      case 'id':
      case 'tool_use_id':
        if (b[valueStart] !== 0x22) return scanValue(b, valueStart, d);
        if (key === 'id') id = readStringValue(b, valueStart, `${where} id`);
        else toolUseId = readStringValue(b, valueStart, `${where} tool_use_id`);
        return scanString(b, valueStart);
      case 'is_error':
        isError = b[valueStart] === 0x74;
        return scanValue(b, valueStart, d);
      case 'cache_control':
        hasCacheControl = true;
        return scanValue(b, valueStart, d);
      case 'content': {
        const scanned = indexToolResultContent(b, valueStart, d);
        content = scanned.content;
        contentTextOnly = scanned.textOnly;
        contentCacheControl = scanned.hasCacheControl;
        return content.end;
      }
      default:
        return scanValue(b, valueStart, d);
    }
  });
  if (type === undefined) throw new ShapeError('unknown_shape', `${where} has no type`);
  if (type === 'tool_result') {
    if (toolUseId === undefined) throw new ShapeError('unknown_shape', `${where} tool_result has no string tool_use_id`);
    pushToolResult(toolResults, { start, end, messageIndex, blockIndex, toolUseId }, content, {
      isError,
      hasCacheControl: hasCacheControl || contentCacheControl,
      textOnly: (content.kind === 'string' || content.kind === 'array') && contentTextOnly,
    });
  }
  blocks.push({ start, end, type, id: type === 'tool_result' ? (toolUseId ?? '') : id });
  return end;
}

// Keys whose duplicates would make the meaning of a block ambiguous (JSON parsers disagree on
// which one wins), so an index that relies on them refuses the body instead of guessing.
const WATCHED_BLOCK_KEYS = new Map(['type', 'id', 'tool_use_id', 'content', 'is_error', 'cache_control'].map((key, i) => [key, 1 << i]));

/** Records a key of `WATCHED_BLOCK_KEYS` in the `seen` bits; the second time is `duplicate_key`. */
function markWatchedKey(seen: number, key: string, where: string): number {
  const bit = WATCHED_BLOCK_KEYS.get(key);
  if (bit === undefined) return seen;
  if ((seen & bit) !== 0) throw new ShapeError('duplicate_key', `${where} has two "${key}" keys`);
  return seen | bit;
}

/** Where a tool_result block sits and whose result it is. */
interface ToolResultPlace extends Span {
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly toolUseId: string;
}

/** Lists a tool_result block among the body's tool results, numbered in document order. */
function pushToolResult(
  toolResults: ToolResultInfo[],
  place: ToolResultPlace,
  content: ToolResultContent,
  flags: Pick<ToolResultInfo, 'isError' | 'hasCacheControl' | 'textOnly'>,
): void {
  toolResults.push({
    start: place.start,
    end: place.end,
    ordinal: toolResults.length,
    messageIndex: place.messageIndex,
    blockIndex: place.blockIndex,
    toolUseId: place.toolUseId,
    content,
    isError: flags.isError,
    hasCacheControl: flags.hasCacheControl,
    textOnly: flags.textOnly,
  });
}
