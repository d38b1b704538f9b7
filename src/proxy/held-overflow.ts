/**
 * Whether a held-back 400 is the API refusing a prompt as too long, and its count. The body may be
 * compressed (the request's accept-encoding admits gzip, deflate and br), so it is decoded here,
 * bounded, before the core reads it (core/prompt-too-long.ts).
 */
import zlib from 'node:zlib';
import { readPrefixMismatch, streamedFailureBody, type ApiDialect, type PrefixMismatch, type TooLongRefusal } from '../core/index.js';
import { contentCoding } from './copy-decompressor.js';
import type { HeldResponse } from './forward.js';

/** Held bodies are small JSON; anything that decodes larger than this is not an overflow error. */
export const HELD_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The refusal in a held response that says the request is over the model's context, in the
 * request's API's words (its dialect's `tooLong`); undefined for anything else.
 */
export function readHeldOverflow(held: HeldResponse, api: Pick<ApiDialect, 'tooLong'>): TooLongRefusal | undefined {
  if (held.status === 200) {
    // A streamed refusal (a Responses stream's `response.failed`), held uncompressed: its error, as the 400 gives it.
    const failure = streamedFailureBody(held.body.toString('utf8'));
    return failure === undefined ? undefined : api.tooLong(failure);
  }
  if (held.status !== 400) return undefined;
  const encoding = held.headers['content-encoding'];
  const text = decodeBody(held.body, typeof encoding === 'string' ? encoding : undefined);
  return text === undefined ? undefined : api.tooLong(text);
}

/** The refused block's place of a held response that says a thinking block failed its prefix check; undefined for anything else. */
export function readHeldPrefixMismatch(held: HeldResponse): PrefixMismatch | undefined {
  if (held.status !== 400) return undefined;
  const encoding = held.headers['content-encoding'];
  const text = decodeBody(held.body, typeof encoding === 'string' ? encoding : undefined);
  return text === undefined ? undefined : readPrefixMismatch(text);
}

function decodeBody(body: Buffer, encoding: string | undefined): string | undefined {
  const coding = contentCoding(encoding);
  const options = { maxOutputLength: HELD_BODY_MAX_BYTES };
  try {
    switch (coding) {
      case undefined:
        return body.toString('utf8');
      case 'gzip':
        return zlib.gunzipSync(body, options).toString('utf8');
      case 'deflate':
        // RFC 9110 says zlib-wrapped; some servers send raw deflate (see copy-decompressor.ts).
        return (isZlibWrapped(body) ? zlib.inflateSync(body, options) : zlib.inflateRawSync(body, options)).toString('utf8');
      case 'br':
        return zlib.brotliDecompressSync(body, options).toString('utf8');
      case 'unsupported':
        return undefined;
    }
  } catch {
    return undefined; // corrupt, or over the bound: not an error body ctxshed can act on
  }
}

function isZlibWrapped(bytes: Buffer): boolean {
  return bytes.length >= 2 && (bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0;
}
