/**
 * The thinking and redacted_thinking blocks a replayed body carries. Pure.
 *
 * Replay bodies are compact JSON (request-body.ts serializes every message with JSON.stringify,
 * and every rewrite splices compact bytes), so a block's `"type":"thinking"` is found byte for
 * byte, and never inside a string: a quote within a string value is escaped. Only a tool_use
 * `input` object with that very key and value would count too; no transcript the tests use has one.
 */
const THINKING = Buffer.from('"type":"thinking"');
const REDACTED = Buffer.from('"type":"redacted_thinking"');

/** How many thinking and redacted_thinking blocks `body` holds. */
export function countThinking(body: Uint8Array): number {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.length);
  return occurrences(bytes, THINKING) + occurrences(bytes, REDACTED);
}

function occurrences(bytes: Buffer, needle: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(needle, 0); at >= 0; at = bytes.indexOf(needle, at + needle.length)) n++;
  return n;
}
