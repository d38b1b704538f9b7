/**
 * The request body a rebuilt request stands for, in the client's key order (test/fixtures/real/README.md), and
 * the part of it the prompt cache compares. Pure.
 *
 * `system` and `tools` are not in transcripts: the body carries a short stand-in, and their size
 * in tokens is fitted (fit-tokens.ts). Their bytes never change, so no strategy differs there.
 */
import { markLastMessage } from '../scripted/breakpoint.js';
import type { ApiMessage } from './rebuild-conversations.js';

const ENCODER = new TextEncoder();
const HEAD = '{"model":';
const TAIL =
  '],"system":[{"type":"text","text":"(system prompt and tools: not in the transcript, sized by calibration)"}],"tools":[],"max_tokens":32000,"stream":true}';
const TAIL_BYTES = ENCODER.encode(TAIL).length;
/**
 * The same for a request whose writes were billed at the one-hour TTL: the client asked for it,
 * so the stand-in asks too, and shed's gate weighs a write at 2.0 as the proxy's would.
 */
const TAIL_1H =
  '],"system":[{"type":"text","text":"(system prompt and tools: not in the transcript, sized by calibration)","cache_control":{"type":"ephemeral","ttl":"1h"}}],"tools":[],"max_tokens":32000,"stream":true}';
const TAIL_1H_BYTES = ENCODER.encode(TAIL_1H);
/** The client's one message-level breakpoint; it moves every turn, so the cache ignores it. */
const CACHE_CONTROL = ',"cache_control":{"type":"ephemeral"}';
const CACHE_CONTROL_BYTES = ENCODER.encode(CACHE_CONTROL);

/** Serializes messages once each: a conversation resends the same message objects every turn. */
export class BodyBuilder {
  readonly #memo = new WeakMap<ApiMessage, string>();

  /**
   * The body: model, messages (cache_control on the last block, as the client puts it), stand-ins;
   * with `ttl` '1h', a system stand-in that asks for the one-hour cache.
   */
  build(model: string, messages: readonly ApiMessage[], ttl: '5m' | '1h' = '5m'): Uint8Array {
    const parts: string[] = [];
    const last = messages.length - 1;
    // The last message carries the breakpoint, marked as the client marks it (the scripted client's own edit).
    for (const [i, m] of messages.entries())
      parts.push(i === last ? JSON.stringify(markLastMessage({ role: m.role, content: m.content }).last) : this.#serialize(m));
    return ENCODER.encode(`${HEAD}${JSON.stringify(model)},"messages":[${parts.join(',')}${ttl === '1h' ? TAIL_1H : TAIL}`);
  }

  #serialize(m: ApiMessage): string {
    let s = this.#memo.get(m);
    if (s === undefined) {
      s = JSON.stringify({ role: m.role, content: m.content });
      this.#memo.set(m, s);
    }
    return s;
  }
}

/**
 * The bytes the prompt cache matches on: the `messages` array without its closing bracket and
 * without the moving breakpoint marker. A previous request's region that is a prefix of this one
 * is a cache hit. Works on rewritten bodies too: rewrites never touch bytes outside `messages`.
 */
export function cacheRegion(body: Uint8Array): Uint8Array {
  const open = indexOf(body, ENCODER.encode('"messages":['), 0);
  if (open < 0) return new Uint8Array(0);
  const tail = endsWith(body, TAIL_1H_BYTES) ? TAIL_1H_BYTES.length : TAIL_BYTES;
  const region = body.subarray(open + '"messages":['.length, body.length - tail);
  const at = indexOf(region, CACHE_CONTROL_BYTES, 0);
  if (at < 0) return region;
  const out = new Uint8Array(region.length - CACHE_CONTROL_BYTES.length);
  out.set(region.subarray(0, at), 0);
  out.set(region.subarray(at + CACHE_CONTROL_BYTES.length), at);
  return out;
}

/** Whether `prefix` is a prefix of `bytes`. */
export function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > bytes.length) return false;
  // Buffer (a global, no import) compares with memcmp: regions run to hundreds of KB per request.
  return Buffer.compare(view(bytes, prefix.length), view(prefix, prefix.length)) === 0;
}

function endsWith(bytes: Uint8Array, suffix: Uint8Array): boolean {
  return (
    bytes.length >= suffix.length &&
    Buffer.compare(Buffer.from(bytes.buffer, bytes.byteOffset + bytes.length - suffix.length, suffix.length), view(suffix, suffix.length)) === 0
  );
}

function view(bytes: Uint8Array, length: number): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, length);
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  return view(hay, hay.length).indexOf(view(needle, needle.length), from);
}
