/**
 * Inflate for shed spans: find the stub messages in a shed body; inflate.ts splices each span's
 * exact bytes back in its place. The edge reads `<state>/spans/<sha256>.json` and checks its hash.
 */
import { decodeJsonString } from '../json-string.js';
import { parseSpanStub, SPAN_STUB_PREFIX, type ParsedSpanStub } from '../shed/span-stub.js';
import type { TranscriptIndex } from '../transcript-index.js';

/** A span stub found in a shed body. */
export interface FoundSpanStub {
  /** Its position among the body's messages. */
  readonly messageIndex: number;
  /** The stub message's bytes, [start, end). */
  readonly start: number;
  readonly end: number;
  readonly stub: ParsedSpanStub;
}

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const PREFIX = new TextEncoder().encode(SPAN_STUB_PREFIX);

/** Every user message whose content is a span stub, in order. */
export function findSpanStubs(body: Uint8Array, index: TranscriptIndex): FoundSpanStub[] {
  const found: FoundSpanStub[] = [];
  for (const [messageIndex, message] of index.messages.entries()) {
    if (message.role !== 'user' || message.content.kind !== 'string' || !startsLikeStub(body, message.content.start)) continue;
    const text = decodeJsonString(body, message.content.start, message.content.end);
    const stub = text === undefined ? undefined : parseSpanStub(UTF8.decode(text));
    if (stub !== undefined) found.push({ messageIndex, start: message.start, end: message.end, stub });
  }
  return found;
}

// `token` points at the content's opening quote; the prefix needs no JSON escapes.
function startsLikeStub(body: Uint8Array, token: number): boolean {
  for (let i = 0; i < PREFIX.length; i++) if (body[token + 1 + i] !== PREFIX[i]) return false;
  return true;
}
