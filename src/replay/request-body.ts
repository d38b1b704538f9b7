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

/**
 * Serializes each message once, as UTF-8 bytes: a conversation resends the same message objects
 * every turn, so a body is the bytes of the last body's messages it shares (one copy) and the
 * bytes of the new ones, not a megabyte of JSON stringified and encoded again per request. A
 * message is encoded from its blocks' bytes, kept by block object too, so a message the replay
 * rebuilds around old blocks (clear-tool-uses.ts) encodes only what is new. The bytes are those of
 * `JSON.stringify` of the body, exactly. A body it returns must not be changed: the next one may
 * copy from it.
 */
export class BodyBuilder {
  readonly #messages = new WeakMap<ApiMessage, Uint8Array>();
  readonly #blocks = new WeakMap<object, Uint8Array>();
  /** The last body's messages but its last (which carried the breakpoint), and their bytes in it, each message's end. */
  #last: { readonly messages: readonly ApiMessage[]; readonly joined: Uint8Array; readonly ends: readonly number[] } | undefined;

  /**
   * The body: model, messages (cache_control on the last block, as the client puts it), stand-ins;
   * with `ttl` '1h', a system stand-in that asks for the one-hour cache.
   */
  build(model: string, messages: readonly ApiMessage[], ttl: '5m' | '1h' = '5m'): Uint8Array {
    const head = ENCODER.encode(`${HEAD}${JSON.stringify(model)},"messages":[`);
    const unmarked = messages.slice(0, Math.max(0, messages.length - 1));
    const shared = this.#sharedMessages(unmarked);
    const fresh = unmarked.slice(shared).map((m) => this.#message(m));
    // The last message carries the breakpoint, marked as the client marks it (the scripted client's own edit).
    const lastMessage = messages.at(-1);
    const marked =
      lastMessage === undefined ? undefined : ENCODER.encode(JSON.stringify(markLastMessage({ role: lastMessage.role, content: lastMessage.content }).last));
    const tail = ttl === '1h' ? TAIL_1H_BYTES : TAIL_5M_BYTES;
    const sharedBytes = shared === 0 ? 0 : this.#last!.ends[shared - 1]!;
    let length = head.length + sharedBytes + tail.length + (marked === undefined ? 0 : marked.length + (unmarked.length > 0 ? 1 : 0));
    for (const f of fresh) length += f.length + 1;
    if (shared === 0 && fresh.length > 0) length--;
    const out = new Uint8Array(length);
    out.set(head, 0);
    let at = head.length;
    if (shared > 0) {
      out.set(this.#last!.joined.subarray(0, sharedBytes), at);
      at += sharedBytes;
    }
    const ends = shared === 0 ? [] : this.#last!.ends.slice(0, shared);
    for (const f of fresh) {
      if (at > head.length) out[at++] = COMMA;
      out.set(f, at);
      at += f.length;
      ends.push(at - head.length);
    }
    this.#last = { messages: unmarked, joined: out.subarray(head.length, at), ends };
    if (marked !== undefined) {
      if (unmarked.length > 0) out[at++] = COMMA;
      out.set(marked, at);
      at += marked.length;
    }
    out.set(tail, at);
    return out;
  }

  /**
   * `cacheRegionLength(this.build(model, messages))` without building the body where it can: when
   * the client's marker goes on the last block (one with keys of its own), the region is every
   * message in its kept form, so its length is theirs and the commas between them.
   */
  regionLength(model: string, messages: readonly ApiMessage[]): number {
    const last = messages.at(-1);
    const lastBlock = last?.content.at(-1);
    const marked =
      last !== undefined &&
      typeof lastBlock === 'object' &&
      lastBlock !== null &&
      Object.keys(lastBlock).length > 0 &&
      markLastMessage({ role: last.role, content: last.content }).edit === 'drop-cache-control';
    if (!marked) return cacheRegionLength(this.build(model, messages));
    let length = messages.length - 1;
    for (const m of messages) length += this.#message(m).length;
    return length;
  }

  /** How many of `messages`, from the first, are the last body's own (the same objects). */
  #sharedMessages(messages: readonly ApiMessage[]): number {
    const last = this.#last?.messages;
    if (last === undefined) return 0;
    const n = Math.min(last.length, messages.length);
    let i = 0;
    while (i < n && last[i] === messages[i]) i++;
    return i;
  }

  #message(m: ApiMessage): Uint8Array {
    let bytes = this.#messages.get(m);
    if (bytes === undefined) {
      const parts: Uint8Array[] = [
        m.role === 'user' ? USER_OPEN : m.role === 'assistant' ? ASSISTANT_OPEN : ENCODER.encode(`{"role":${JSON.stringify(m.role)},"content":[`),
      ];
      for (const [i, block] of m.content.entries()) {
        if (i > 0) parts.push(COMMA_BYTES);
        parts.push(this.#block(block));
      }
      parts.push(MESSAGE_CLOSE);
      bytes = concatBytes(parts);
      this.#messages.set(m, bytes);
    }
    return bytes;
  }

  /** A block's bytes as `JSON.stringify` writes it inside an array (`null` for what it cannot write). */
  #block(block: unknown): Uint8Array {
    if (typeof block !== 'object' || block === null) return ENCODER.encode(JSON.stringify(block) ?? 'null');
    let bytes = this.#blocks.get(block);
    if (bytes === undefined) {
      bytes = ENCODER.encode(JSON.stringify(block) ?? 'null');
      this.#blocks.set(block, bytes);
    }
    return bytes;
  }
}

/** `,` as a byte. */
const COMMA = 0x2c;
const COMMA_BYTES = ENCODER.encode(',');
const USER_OPEN = ENCODER.encode('{"role":"user","content":[');
const ASSISTANT_OPEN = ENCODER.encode('{"role":"assistant","content":[');
const MESSAGE_CLOSE = ENCODER.encode(']}');
const TAIL_5M_BYTES = ENCODER.encode(TAIL);

/** The parts, one after another, in one new array. */
function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The bytes the prompt cache matches on: the `messages` array without its closing bracket and
 * without the moving breakpoint marker. A previous request's region that is a prefix of this one
 * is a cache hit. Works on rewritten bodies too: rewrites never touch bytes outside `messages`.
 */
export function cacheRegion(body: Uint8Array): Uint8Array {
  const { head, tail, length } = regionOfBody(body);
  if (tail.length === 0) return head;
  const out = new Uint8Array(length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

/**
 * A cache region as the two parts of its body it is made of, before and after the marker (the
 * tail empty without one): a region is not copied out of its body, which would cost a megabyte
 * a strategy a request. `cacheRegion` joins them.
 */
export interface CacheRegion {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  readonly length: number;
}

/** `cacheRegion(body)` in its parts, views of `body` (which must not change). */
export function regionOfBody(body: Uint8Array): CacheRegion {
  const { region, marker } = regionParts(body);
  if (marker < 0) return { head: region, tail: EMPTY, length: region.length };
  const tail = region.subarray(marker + CACHE_CONTROL_BYTES.length);
  return { head: region.subarray(0, marker), tail, length: region.length - CACHE_CONTROL_BYTES.length };
}

/** A region of bytes in one part. */
export function wholeRegion(bytes: Uint8Array): CacheRegion {
  return { head: bytes, tail: EMPTY, length: bytes.length };
}

/** `cacheRegion(body).length`, without making the region. */
export function cacheRegionLength(body: Uint8Array): number {
  return regionOfBody(body).length;
}

/** Whether region `prefix` is a prefix of region `bytes`. */
export function regionStartsWith(bytes: CacheRegion, prefix: CacheRegion): boolean {
  return prefix.length <= bytes.length && matchesAt(bytes, 0, prefix.head) && matchesAt(bytes, prefix.head.length, prefix.tail);
}

/** Whether `region` holds `part` at `offset` (the caller keeps it within the region's length). */
function matchesAt(region: CacheRegion, offset: number, part: Uint8Array): boolean {
  const inHead = Math.max(0, Math.min(part.length, region.head.length - offset));
  if (inHead > 0 && !startsWith(region.head.subarray(offset, offset + inHead), part.subarray(0, inHead))) return false;
  if (inHead === part.length) return true;
  const from = offset + inHead - region.head.length;
  return startsWith(region.tail.subarray(from), part.subarray(inHead));
}

/**
 * The `messages` array without its closing bracket, and where the breakpoint marker is in it (-1:
 * none). The marker is the last one: the client puts it on the last block, and a block's own
 * `cache_control` earlier on is bytes every later request sends too. Searched from the end, as it
 * sits in the last message of a body of megabytes.
 */
function regionParts(body: Uint8Array): { readonly region: Uint8Array; readonly marker: number } {
  const open = indexOf(body, MESSAGES_OPEN, 0);
  if (open < 0) return { region: EMPTY, marker: -1 };
  const tail = endsWith(body, TAIL_1H_BYTES) ? TAIL_1H_BYTES.length : TAIL_BYTES;
  const region = body.subarray(open + MESSAGES_OPEN.length, body.length - tail);
  return { region, marker: region.length === 0 ? -1 : view(region, region.length).lastIndexOf(view(CACHE_CONTROL_BYTES, CACHE_CONTROL_BYTES.length)) };
}

const EMPTY = new Uint8Array(0);
const MESSAGES_OPEN = ENCODER.encode('"messages":[');

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
