/** Small request bodies with known answers, and the helpers the core tests share. */
import { createHash } from 'node:crypto';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';

/** node:crypto sha256, the port the edges hand the core. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return ENCODER.encode(text);
}

/** A string from UTF-8 bytes (throws on invalid UTF-8). */
export function fromUtf8(bytes: Uint8Array): string {
  return DECODER.decode(bytes);
}

/** Bytes from a list of byte values and strings (for invalid UTF-8 and raw control bytes). */
export function rawBytes(...parts: ReadonlyArray<string | readonly number[] | Uint8Array>): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? utf8(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** The same bytes as a plain Uint8Array (so a Buffer and a Uint8Array of equal bytes compare equal). */
export function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** The index of a body that must index. */
export function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(`expected the body to index: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

/** The bytes [start, end) of a body as a string. */
export function slice(body: Uint8Array, span: { readonly start: number; readonly end: number }): string {
  return fromUtf8(body.subarray(span.start, span.end));
}

/** `n` bytes of ASCII text that never needs a JSON escape, different for each `seed`. */
export function filler(n: number, seed = 0): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:-_=+()';
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet.charAt((i * 7 + seed * 13 + ((i / 5) | 0)) % alphabet.length);
  return s;
}

/** A tool_result block. `content` may be any JSON value, or left out with `undefined`. */
export function toolResult(id: string, content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return content === undefined ? { tool_use_id: id, type: 'tool_result', ...extra } : { tool_use_id: id, type: 'tool_result', content, ...extra };
}

/**
 * A Messages body with one prompt, then for each entry an assistant tool_use and a user message
 * with its tool_result (ids `toolu_0`, `toolu_1` ...), then a closing user text message, so that
 * no tool_result is in the last message unless `closing: false`.
 */
export function conversation(contents: readonly unknown[], options: { closing?: boolean; extra?: readonly Record<string, unknown>[] } = {}): Uint8Array {
  const messages: unknown[] = [{ role: 'user', content: 'Please look at the project.' }];
  contents.forEach((content, i) => {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/p/${i}.ts` } }] });
    messages.push({ role: 'user', content: [toolResult(`toolu_${i}`, content, options.extra?.[i] ?? {})] });
  });
  if (options.closing ?? true) messages.push({ role: 'user', content: [{ type: 'text', text: 'Go on.', cache_control: { type: 'ephemeral' } }] });
  return utf8(JSON.stringify({ model: 'claude-test', messages, system: [{ type: 'text', text: 'sys' }], max_tokens: 100, stream: true }));
}

/**
 * Replaces the `n`th occurrence (0-based) of `from` in the body by `to`, as bytes. For building a
 * body that differs from a canonical one only in how one token is spelled.
 */
export function replaceNth(body: Uint8Array, from: string, to: string, n = 0): Uint8Array {
  const text = fromUtf8(body);
  let at = -1;
  for (let k = 0; k <= n; k++) {
    at = text.indexOf(from, at + 1);
    if (at < 0) throw new Error(`"${from}" occurs fewer than ${n + 1} times`);
  }
  return utf8(text.slice(0, at) + to + text.slice(at + from.length));
}
