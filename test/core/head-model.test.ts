import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readHeadModel } from '../../src/core/head-model.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readHeadModel', () => {
  it('should read a model that comes before messages, as Claude Code sends it', () => {
    const body = readFileSync(new URL('../fixtures/real/09-main-last.json', import.meta.url));

    expect(readHeadModel(new Uint8Array(body))).toBe('claude-sonnet-4-5');
  });

  it('should read escapes and whitespace, and skip other keys before it', () => {
    expect(readHeadModel(bytes(' { "max_tokens" : 5 , "model" : "claude-opus-5\\u002d5" , "messages": [] }'))).toBe('claude-opus-5-5');
  });

  it('should not look past messages, nor read a model that is no string', () => {
    expect(readHeadModel(bytes('{"messages":[],"model":"claude-opus-5-5"}'))).toBeUndefined();
    expect(readHeadModel(bytes('{"model":5,"messages":[]}'))).toBeUndefined();
    expect(readHeadModel(bytes('{"model":null}'))).toBeUndefined();
  });

  it('should give undefined, never throw, for bodies that are not an object or not JSON', () => {
    for (const text of ['', '[]', '{', '{"model"', '{"model":"abc', '{"model":"\\x"}', 'null', '{"a":1 "model":"m"}']) {
      expect(readHeadModel(bytes(text)), text).toBeUndefined();
    }
    expect(readHeadModel(new Uint8Array([0x7b, 0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toBeUndefined();
  });
});
