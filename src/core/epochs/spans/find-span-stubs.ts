/**
 * Inflate for shed spans: find the stub messages in a shed body; inflate.ts splices each span's
 * exact bytes back in its place. The edge reads `<state>/spans/<sha256>.json` and checks its hash.
 */
import { decodeJsonString } from '../../json-string.js';
import { parseSpanStub, SPAN_STUB_PREFIX, type ParsedSpanStub } from '../../shed/span-stub.js';
import { scanObject, scanString, scanValue } from '../../json-scan.js';
import { isItemMessage } from '../../shed/responses-facts.js';
import type { Span, TranscriptIndex } from '../../transcript-index-types.js';

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

/**
 * Every user message whose content is a span stub, in order. A Responses item stands for itself
 * in its index (core/shed/responses-facts.ts), so its `content` string is looked up in it.
 */
export function findSpanStubs(body: Uint8Array, index: TranscriptIndex): FoundSpanStub[] {
  const found: FoundSpanStub[] = [];
  for (const [messageIndex, message] of index.messages.entries()) {
    if (message.role !== 'user') continue;
    const content = message.content.kind === 'string' ? message.content : isItemMessage(message) ? contentString(body, message.start) : undefined;
    if (content === undefined || !startsLikeStub(body, content.start)) continue;
    const text = decodeJsonString(body, content.start, content.end);
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

const CONTENT = new TextEncoder().encode('"content"');

/** The string token of an item's `content` member, when it is a string (the stub's is, unescaped). */
function contentString(body: Uint8Array, start: number): Span | undefined {
  let found: Span | undefined;
  scanObject(body, start, 3, (keyStart, keyEnd, valueStart, d) => {
    const isContent = keyEnd - keyStart === CONTENT.length && CONTENT.every((c, i) => body[keyStart + i] === c);
    if (!isContent || body[valueStart] !== 0x22) return scanValue(body, valueStart, d);
    found = { start: valueStart, end: scanString(body, valueStart) };
    return found.end;
  });
  return found;
}
