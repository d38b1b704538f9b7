/**
 * Where a tool output's value sits and whether it is text: the `output` of a Responses
 * `function_call_output` / `custom_tool_call_output`, or the `content` of a chat `tool` message.
 */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import type { Span, ToolResultContent } from '../transcript-index-types.js';
import { readToken } from './index-support.js';

/** A tool output's value, as the shared plan and rewrite see it. */
export interface IndexedToolOutput {
  readonly content: ToolResultContent;
  /** A string, or an array of `{type: <textPart>, text}` parts with nothing else in them. */
  readonly textOnly: boolean;
  /** A part carries a cache mark (`prompt_cache_breakpoint`, or a gateway's `cache_control`). */
  readonly hasCacheMark: boolean;
}

/** The content of an item or message that has no output value at all. */
export const ABSENT_OUTPUT: IndexedToolOutput = { content: { start: -1, end: -1, kind: 'absent', texts: [] }, textOnly: false, hasCacheMark: false };

const CACHE_MARKS = new Set(['prompt_cache_breakpoint', 'cache_control']);

/**
 * Indexes the value at `start`. `textPart` is the type of a text part in this API
 * (`input_text` in the Responses API, `text` in chat).
 */
export function indexToolOutput(b: Uint8Array, start: number, depth: number, textPart: string): IndexedToolOutput {
  if (b[start] === 0x22) {
    const end = scanString(b, start);
    return { content: { start, end, kind: 'string', texts: [{ start, end }] }, textOnly: true, hasCacheMark: false };
  }
  if (b[start] !== 0x5b) {
    const end = scanValue(b, start, depth);
    return { content: { start, end, kind: 'other', texts: [] }, textOnly: false, hasCacheMark: false };
  }
  const texts: Span[] = [];
  let textOnly = true;
  let hasCacheMark = false;
  const end = scanArray(b, start, depth + 1, (partStart, _i, d) => {
    if (b[partStart] !== 0x7b) {
      textOnly = false;
      return scanValue(b, partStart, d);
    }
    let type: string | undefined;
    let text: Span | undefined;
    let keys = 0;
    const partEnd = scanObject(b, partStart, d + 1, (keyStart, keyEnd, valueStart, dd) => {
      keys++;
      const key = readToken(b, keyStart, keyEnd);
      if (CACHE_MARKS.has(key)) hasCacheMark = true;
      if (key === 'type' && b[valueStart] === 0x22 && type === undefined) {
        const valueEnd = scanString(b, valueStart);
        type = readToken(b, valueStart, valueEnd);
        return valueEnd;
      }
      if (key === 'text' && b[valueStart] === 0x22 && text === undefined) {
        text = { start: valueStart, end: scanString(b, valueStart) };
        return text.end;
      }
      return scanValue(b, valueStart, dd);
    });
    if (type !== textPart || text === undefined || keys !== 2) textOnly = false;
    else texts.push(text);
    return partEnd;
  });
  return { content: { start, end, kind: 'array', texts }, textOnly: textOnly && texts.length > 0, hasCacheMark };
}
