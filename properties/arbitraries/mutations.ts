/**
 * Damaged bodies for the fail-open properties: truncations, single-byte edits (biased towards the
 * bytes JSON's structure turns on), and real bodies wrapped in shapes that are not a Messages
 * request, each with the pass-through reason it must get.
 */
import fc from 'fast-check';
import type { PassthroughReason } from '../../src/core/passthrough-reasons.js';
import { concatBytes, utf8 } from '../support/bytes.js';

/** One edit of one byte: replace it, insert one before it, or delete it. */
export interface ByteEdit {
  readonly kind: 'replace' | 'insert' | 'delete';
  /** Taken modulo the body's length. */
  readonly at: number;
  readonly byte: number;
}

const STRUCTURAL_BYTES = [
  0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x20, 0x09, 0x0a, 0x0d, 0x00, 0x1f, 0x75, 0x30, 0x2d, 0x65, 0x74, 0x6e, 0x80, 0xc3, 0xef, 0xff,
];

export const byteEditArb: fc.Arbitrary<ByteEdit> = fc.record({
  kind: fc.constantFrom('replace', 'insert', 'delete'),
  at: fc.nat(),
  byte: fc.oneof(fc.constantFrom(...STRUCTURAL_BYTES), fc.integer({ min: 0, max: 255 })),
});

/** The body with the edit applied (a copy; the body itself is left alone). */
export function applyByteEdit(body: Uint8Array, edit: ByteEdit): Uint8Array {
  if (body.length === 0) return edit.kind === 'insert' ? Uint8Array.of(edit.byte) : body.slice();
  const at = edit.at % body.length;
  switch (edit.kind) {
    case 'replace': {
      const out = body.slice();
      out[at] = edit.byte;
      return out;
    }
    case 'insert':
      return concatBytes([body.subarray(0, at), Uint8Array.of(edit.byte), body.subarray(at)]);
    case 'delete':
      return concatBytes([body.subarray(0, at), body.subarray(at + 1)]);
  }
}

/** A way to wrap a real body so that it is no longer a Messages request, and the reason it must get. */
export interface WrongShape {
  readonly name: string;
  readonly reason: PassthroughReason;
  readonly wrap: (body: Uint8Array) => Uint8Array;
}

const around = (before: string, after: string) => (body: Uint8Array) => concatBytes([utf8(before), body, utf8(after)]);
const instead = (text: string) => () => utf8(text);
/** The body with `text` put just after its opening brace (generated bodies start with optional whitespace, then `{`). */
const afterBrace = (text: string) => (body: Uint8Array) => {
  const brace = body.indexOf(0x7b);
  return concatBytes([body.subarray(0, brace + 1), utf8(text), body.subarray(brace + 1)]);
};

export const WRONG_SHAPES: readonly WrongShape[] = [
  { name: 'array around the body', reason: 'not_messages_body', wrap: around('[', ']') },
  { name: 'body under another key', reason: 'not_messages_body', wrap: around('{"request":', '}') },
  { name: 'body as a JSON string', reason: 'not_messages_body', wrap: (b) => utf8(JSON.stringify(new TextDecoder().decode(b))) },
  { name: 'a second "messages" key', reason: 'duplicate_key', wrap: afterBrace('"messages":[],') },
  { name: 'a BOM before the body', reason: 'not_json', wrap: around('\ufeff', '') },
  { name: 'a NUL after the body', reason: 'not_json', wrap: around('', '\u0000') },
  { name: 'two bodies', reason: 'not_json', wrap: (b) => concatBytes([b, b]) },
  { name: 'gzip magic before the body', reason: 'not_json', wrap: (b) => concatBytes([Uint8Array.of(0x1f, 0x8b, 0x08, 0x00), b]) },
  {
    name: 'a trailing comma inside',
    reason: 'not_json',
    wrap: (b) => {
      const close = b.lastIndexOf(0x7d);
      return concatBytes([b.subarray(0, close), utf8(','), b.subarray(close)]);
    },
  },
  { name: 'messages is an object', reason: 'not_messages_body', wrap: instead('{"model":"m","messages":{"role":"user","content":"x"}}') },
  { name: 'a message that is not an object', reason: 'not_messages_body', wrap: instead('{"messages":[["user","x"]]}') },
  { name: 'a message without content', reason: 'not_messages_body', wrap: instead('{"messages":[{"role":"user"}]}') },
  { name: 'content that is a number', reason: 'unknown_shape', wrap: instead('{"messages":[{"role":"user","content":5}]}') },
  { name: 'a block without type', reason: 'unknown_shape', wrap: instead('{"messages":[{"role":"user","content":[{"text":"x"}]}]}') },
  {
    name: 'a tool_result with a numeric id',
    reason: 'unknown_shape',
    wrap: instead('{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":5,"content":"x"}]}]}'),
  },
  { name: 'a role given twice', reason: 'duplicate_key', wrap: instead('{"messages":[{"role":"user","role":"assistant","content":"x"}]}') },
  {
    name: 'a tool_use_id given twice',
    reason: 'duplicate_key',
    wrap: instead('{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","tool_use_id":"b","content":"x"}]}]}'),
  },
];

export const wrongShapeArb: fc.Arbitrary<WrongShape> = fc.constantFrom(...WRONG_SHAPES);
