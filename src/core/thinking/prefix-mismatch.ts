/**
 * The API's refusal of a thinking block that failed its prefix check (the Messages API docs, "Fix
 * a thinking block bound to a different conversation"): a 400 whose body is
 * `{"type":"error","error":{"type":"invalid_request_error","message":"messages.N.content.M:
 * Invalid `signature` in `thinking` block. The block is bound to a different conversation. ..."}}`.
 * Pure: the body's text in, the block's place out.
 */
import { readInvalidRequestMessage } from '../invalid-request-message.js';

/** Where the refused block was, as the message names it. */
export interface PrefixMismatch {
  readonly messageIndex: number;
  readonly blockIndex: number;
}

// The wording is the API's own; the place comes first, then the sentence that says why.
const BOUND = /bound to a different conversation/i;
const PLACE = /messages\.(\d+)\.content\.(\d+)/;

/** The refused block's place in an API error body that says it failed the prefix check; undefined for anything else. */
export function readPrefixMismatch(text: string): PrefixMismatch | undefined {
  const message = readInvalidRequestMessage(text);
  if (message === undefined || !BOUND.test(message)) return undefined;
  const place = PLACE.exec(message);
  if (place === null) return undefined;
  const messageIndex = Number(place[1]);
  const blockIndex = Number(place[2]);
  return Number.isSafeInteger(messageIndex) && Number.isSafeInteger(blockIndex) ? { messageIndex, blockIndex } : undefined;
}
