import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readBodyModel } from '../../src/core/head-model.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readBodyModel', () => {
  it('should read a model that comes before messages, as Claude Code sends it', () => {
    const body = readFileSync(new URL('../fixtures/real/09-main-last.json', import.meta.url));

    expect(readBodyModel(new Uint8Array(body))).toBe('claude-sonnet-4-5');
  });

  it('should read escapes and whitespace, and skip other keys before it', () => {
    expect(readBodyModel(bytes(' { "max_tokens" : 5 , "model" : "claude-opus-5\\u002d5" , "messages": [] }'))).toBe('claude-opus-5-5');
  });

  it('should read keys as the API does: the last model wins, after messages too', () => {
    expect(readBodyModel(bytes('{"messages":[],"model":"claude-opus-5-5"}'))).toBe('claude-opus-5-5');
    expect(readBodyModel(bytes('{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"x"}],"model":"claude-opus-5-5"}'))).toBe('claude-opus-5-5');
    expect(readBodyModel(bytes('{"model":"claude-opus-5-5","messages":[],"model":5}'))).toBeUndefined();
  });

  it('should not read a model that is no string', () => {
    expect(readBodyModel(bytes('{"model":5,"messages":[]}'))).toBeUndefined();
    expect(readBodyModel(bytes('{"model":null}'))).toBeUndefined();
  });

  it('should give undefined, never throw, for bodies that are not an object, not JSON, or not whole', () => {
    for (const text of [
      '',
      '[]',
      '{',
      '{"model"',
      '{"model":"abc',
      '{"model":"\\x"}',
      'null',
      '{"a":1 "model":"m"}',
      '{"model":"m",',
      '{"model":"m",}',
      '{"model":"m","messages":[',
    ]) {
      expect(readBodyModel(bytes(text)), text).toBeUndefined();
    }
    expect(readBodyModel(new Uint8Array([0x7b, 0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toBeUndefined();
  });
});
