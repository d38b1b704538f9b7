/**
 * The task the classifier judges chunks against: the person's latest prompt in the request,
 * without the client's `<system-reminder>` blocks, redacted and cut short.
 */
import { decodeJsonString } from '../json-string.js';
import { scanObject, scanString, scanValue } from '../json-scan.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { truncateChars } from './main-input.js';
import { redactText } from './redact-text.js';

/** The longest task the classifier is told, in characters. */
export const TASK_MAX_CHARS = 500;

const UTF8 = new TextDecoder('utf-8');
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** The latest user prompt's text, redacted, at most TASK_MAX_CHARS; empty when there is none. */
export function currentTask(body: Uint8Array, index: TranscriptIndex): string {
  for (let m = index.messages.length - 1; m >= 0; m--) {
    const message = index.messages[m]!;
    if (message.role !== 'user') continue;
    const texts =
      message.content.kind === 'string'
        ? [decode(body, message.content.start, message.content.end)]
        : message.blocks.filter((b) => b.type === 'text').map((b) => textOfBlock(body, b.start));
    const prompt = texts
      .map((t) => (t ?? '').replace(REMINDER, '').trim())
      .filter((t) => t !== '')
      .join('\n');
    if (prompt !== '') return truncateChars(redactText(prompt).text, TASK_MAX_CHARS);
  }
  return '';
}

function textOfBlock(b: Uint8Array, start: number): string | undefined {
  let text: string | undefined;
  try {
    scanObject(b, start, 0, (keyStart, keyEnd, valueStart, depth) => {
      const end = scanValue(b, valueStart, depth);
      if (b[valueStart] === 0x22 && decode(b, keyStart, keyEnd) === 'text') text = decode(b, valueStart, scanString(b, valueStart));
      return end;
    });
  } catch {
    return undefined; // the index validated the body; this is not reached
  }
  return text;
}

function decode(b: Uint8Array, start: number, end: number): string | undefined {
  const bytes = decodeJsonString(b, start, end);
  return bytes === undefined ? undefined : UTF8.decode(bytes);
}
