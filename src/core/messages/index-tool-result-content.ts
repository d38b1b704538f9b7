/** The `content` value of a tool_result block, indexed: where it sits, its text tokens, and whether it is text only. */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import { readKey, readStringValue } from './index-strings.js';
import type { Span, ToolResultContent } from '../transcript-index-types.js';

/** Indexes a tool_result's content value at `start`; `hasCacheControl` when a block inside it carries `cache_control`. */
export function indexToolResultContent(
  b: Uint8Array,
  start: number,
  depth: number,
): { content: ToolResultContent; textOnly: boolean; hasCacheControl: boolean } {
  if (b[start] === 0x22) {
    const end = scanString(b, start);
    return { content: { start, end, kind: 'string', texts: [{ start, end }] }, textOnly: true, hasCacheControl: false };
  }
  if (b[start] !== 0x5b) {
    const end = scanValue(b, start, depth);
    return { content: { start, end, kind: 'other', texts: [] }, textOnly: false, hasCacheControl: false };
  }
  const texts: Span[] = [];
  let textOnly = true;
  let hasCacheControl = false;
  const end = scanArray(b, start, depth + 1, (itemStart, _i, d) => {
    if (b[itemStart] !== 0x7b) {
      textOnly = false;
      return scanValue(b, itemStart, d);
    }
    let type: string | undefined;
    let text: Span | undefined;
    let keys = 0;
    const itemEnd = scanObject(b, itemStart, d + 1, (keyStart, keyEnd, valueStart, dd) => {
      keys++;
      const key = readKey(b, keyStart, keyEnd);
      if (key === 'cache_control') hasCacheControl = true;
      if (key === 'type' && b[valueStart] === 0x22 && type === undefined) {
        type = readStringValue(b, valueStart, 'content block type');
        return scanString(b, valueStart);
      }
      if (key === 'text' && b[valueStart] === 0x22 && text === undefined) {
        text = { start: valueStart, end: scanString(b, valueStart) };
        return text.end;
      }
      return scanValue(b, valueStart, dd);
    });
    if (type !== 'text' || text === undefined || keys !== 2) textOnly = false;
    else texts.push(text);
    return itemEnd;
  });
  return { content: { start, end, kind: 'array', texts }, textOnly: textOnly && texts.length > 0, hasCacheControl };
}
