import { describe, expect, it } from 'vitest';
import {
  conversationPath,
  elidedPath,
  isHex64,
  isTempLeftover,
  layoutPaths,
  parseConversationName,
  parseElidedName,
  spanPath,
  parseSealRecordName,
  sealedPath,
  sealRecordPath,
} from '../../src/state/layout.js';
import { SPAN_INFO } from '../../src/core/epochs/spans/info.js';
import { parseOriginalName } from '../../src/state/kind-original.js';

const SHA = 'a'.repeat(64);
const state = layoutPaths('/var/state');

describe('isHex64', () => {
  it('should accept 64 lowercase hex digits only', () => {
    expect(isHex64(SHA)).toBe(true);
    expect(isHex64('A'.repeat(64))).toBe(false);
    expect(isHex64('a'.repeat(63))).toBe(false);
    expect(isHex64(`${'a'.repeat(64)}\n`)).toBe(false);
  });
});

describe('parseElidedName', () => {
  it('should split <sha256>.txt and <sha256>.json', () => {
    expect(parseElidedName(`${SHA}.txt`)).toEqual({ sha256: SHA, ext: 'txt' });
    expect(parseElidedName(`${SHA}.json`)).toEqual({ sha256: SHA, ext: 'json' });
  });

  it('should refuse other names, including temp leftovers', () => {
    expect(parseElidedName(`${SHA}.md`)).toBeUndefined();
    expect(parseElidedName(`${SHA}.txt.123456`)).toBeUndefined();
    expect(parseElidedName('notes.txt')).toBeUndefined();
  });
});

describe('parseConversationName', () => {
  it('should return the key of <key>.json and nothing else', () => {
    expect(parseConversationName(`${SHA}.json`)).toBe(SHA);
    expect(parseConversationName(`${SHA}.json.42`)).toBeUndefined();
    expect(parseConversationName(`${SHA}.txt`)).toBeUndefined();
  });
});

describe('isTempLeftover', () => {
  it('should recognize write-file-atomic temp names <name>.<digits>', () => {
    expect(isTempLeftover(`${SHA}.txt.3735928559`)).toBe(true);
    expect(isTempLeftover('x.json.123456')).toBe(true);
  });

  it('should recognize the staging name and its own write-file-atomic temp file (a kill mid-stage)', () => {
    expect(isTempLeftover(`${SHA}.txt.0186040012`)).toBe(true);
    expect(isTempLeftover(`${SHA}.txt.0186040012.3234658375`)).toBe(true);
    expect(isTempLeftover(`${SHA}.txt.1.2.3`)).toBe(false);
  });

  it('should not take real files for leftovers', () => {
    expect(isTempLeftover(`${SHA}.txt`)).toBe(false);
    expect(isTempLeftover('wire.jsonl')).toBe(false);
    expect(isTempLeftover('x.json.12a')).toBe(false);
  });
});

describe('layoutPaths', () => {
  it('should place every part under the root', () => {
    expect(state).toEqual({
      root: '/var/state',
      conversationsDir: '/var/state/conversations',
      elidedDir: '/var/state/elided',
      spansDir: '/var/state/spans',
      thinkingDir: '/var/state/thinking',
      sealedDir: '/var/state/sealed',
      wirePath: '/var/state/wire.jsonl',
      lockPath: '/var/state/.lock',
    });
  });
});

describe('elidedPath', () => {
  it('should name the file by its sha256 and extension', () => {
    expect(elidedPath(state, SHA, 'txt')).toBe(`/var/state/elided/${SHA}.txt`);
  });

  it('should refuse a name that could escape elided/', () => {
    expect(() => elidedPath(state, '../../etc/passwd', 'txt')).toThrow(expect.objectContaining({ code: 'STATE_BAD_NAME' }));
  });
});

describe("a span file's name (the span kind's extensions) and spanPath", () => {
  it('should split <sha256>.json and <sha256>.md, and refuse anything else', () => {
    const parseSpanName = (name: string) => parseOriginalName(name, SPAN_INFO.exts ?? []);
    expect(parseSpanName(`${SHA}.json`)).toEqual({ sha256: SHA, ext: 'json' });
    expect(parseSpanName(`${SHA}.md`)).toEqual({ sha256: SHA, ext: 'md' });
    expect(parseSpanName(`${SHA}.txt`)).toBeUndefined();
    expect(parseSpanName(`${SHA}.md.123`)).toBeUndefined();
    expect(isTempLeftover(`${SHA}.md.0123400001`)).toBe(true);
  });

  it('should name a span file under spans/, and refuse a name that could escape it', () => {
    expect(spanPath(state, SHA, 'md')).toBe(`/var/state/spans/${SHA}.md`);
    expect(() => spanPath(state, '../x', 'json')).toThrow(expect.objectContaining({ code: 'STATE_BAD_NAME' }));
  });
});

describe('conversationPath', () => {
  it('should refuse a key that is not 64 lowercase hex digits', () => {
    expect(conversationPath(state, SHA)).toBe(`/var/state/conversations/${SHA}.json`);
    expect(() => conversationPath(state, 'ABC')).toThrow(expect.objectContaining({ code: 'STATE_BAD_NAME' }));
  });
});

describe('sealedPath', () => {
  it('should name the file as elided/ did, under sealed/', () => {
    expect(sealedPath(state, SHA, 'txt')).toBe(`/var/state/sealed/${SHA}.txt`);
    expect(sealRecordPath(state, SHA)).toBe(`/var/state/sealed/${SHA}.seal.json`);
  });

  it('should refuse a name that could escape sealed/', () => {
    expect(() => sealedPath(state, '../elided/x', 'txt')).toThrow(expect.objectContaining({ code: 'STATE_BAD_NAME' }));
    expect(() => sealRecordPath(state, '../x')).toThrow(expect.objectContaining({ code: 'STATE_BAD_NAME' }));
  });
});

describe('parseSealRecordName', () => {
  it('should read the sha256 of <sha256>.seal.json and nothing else', () => {
    expect(parseSealRecordName(`${SHA}.seal.json`)).toBe(SHA);
    expect(parseSealRecordName(`${SHA}.json`)).toBeUndefined();
    expect(parseSealRecordName(`${SHA}.seal.json.123`)).toBeUndefined();
  });
});
