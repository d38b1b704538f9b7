/**
 * What the request being decided carries, estimated (docs/shed.md, "Never past the window"). The
 * decision reads the conversation's last reading, which measured the request before this one; this
 * request grew since by what the model and the person added. An epoch that weighs only the last
 * reading can hold (or plan a span to fit) while the request it sends is over the window. So each
 * kind weighs the reading pressed up to this request: the body with the epochs it already carries
 * applied (every frozen item in place of its stub), counted with the reading's own tokens per byte.
 */
import { encodeJsonString } from '../json-string.js';
import { tokensPerByteOf, type FullnessReading } from '../fullness-reading.js';
import type { FrozenBlock } from '../epoch-types.js';
import type { FrozenSpan } from '../shed/shed-types.js';
import { spanStubMessage } from '../shed/span-stub.js';
import { renderStub } from '../stub.js';
import { cachedStubs } from './stub-cache.js';

const UTF8 = new TextEncoder();
const spanStubBytes = cachedStubs(spanStubMessage);
const blockStubBytes = cachedStubs((block: FrozenBlock, elidedDir: string) => encodeJsonString(UTF8.encode(renderStub(block, elidedDir))));

/**
 * The reading as this request would weigh it: the last reading's tokens plus the bytes the request
 * grew by since (`sentBytes`, the body as it will be sent without a new epoch), at the reading's
 * tokens per byte. Never below the last reading: a request that shrank (the client compacted) is
 * weighed as the reading says, which errs toward the window.
 */
export function pressedReading(reading: FullnessReading, sentBytes: number): FullnessReading {
  const grown = sentBytes - reading.requestBytes;
  if (grown <= 0 || reading.requestBytes <= 0) return reading;
  const contextTokens = reading.contextTokens + Math.round(grown * tokensPerByteOf(reading));
  return { ...reading, contextTokens, requestBytes: sentBytes };
}

/** The body's bytes with the frozen spans it carries shed (each span's messages in place of its stub message). */
export function bytesWithSpans(body: Uint8Array, spans: readonly FrozenSpan[], spansDir: string): number {
  return spans.reduce((bytes, span) => bytes - Math.max(0, span.bytes - spanStubBytes(span, spansDir).length), body.length);
}

/** The body's bytes with the frozen blocks it carries stubbed (each block's content JSON in place of its stub's). */
export function bytesWithBlocks(body: Uint8Array, blocks: readonly FrozenBlock[], elidedDir: string): number {
  return blocks.reduce((bytes, block) => bytes - Math.max(0, block.jsonBytes - blockStubBytes(block, elidedDir).length), body.length);
}
