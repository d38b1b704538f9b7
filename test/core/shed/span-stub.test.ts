import { describe, expect, it } from 'vitest';
import { estimateSpanTokens, parseSpanStub, renderSpanStub, spanFilePath, spanStubMessage } from '../../../src/core/shed/span-stub.js';
import { GOAL_MARKER, type FrozenSpan } from '../../../src/core/shed/shed-types.js';
import { fromUtf8 } from './shed-bodies.js';

const SHA = 'ab'.repeat(32);
const DIR = '/home/me/.local/state/ctxshed/spans';
const SPAN: FrozenSpan = { first: 1, last: 12, sha256: SHA, bytes: 48213, pins: [] };

describe('renderSpanStub', () => {
  it('should say how many messages, their bytes and tokens, the handle and both ways back', () => {
    const text = renderSpanStub(SPAN, DIR);

    expect(text).toBe(
      `[ctxshed: shed 12 earlier messages of this conversation to save context: 48213 bytes, about 12053 tokens. Handle: ${SHA}. ` +
        `To see them again, call the ctxshed restore tool with this handle, or read ${DIR}/${SHA}.md (the exact JSON is in ${DIR}/${SHA}.json).]`,
    );
  });

  it('should name the pages its .md is read in when one Read would stop short, and read back the same (issue 39)', () => {
    const readPages = [
      [1, 612],
      [613, 590],
      [1203, 380],
    ] as const;
    const text = renderSpanStub({ ...SPAN, readPages }, DIR);

    expect(text).toContain(
      `or read ${DIR}/${SHA}.md (1582 lines) in 3 Reads, since one Read stops at the client's cap: offset 1 limit 612, offset 613 limit 590, offset 1203 limit 380 (the exact JSON is in ${DIR}/${SHA}.json).]`,
    );
    expect(parseSpanStub(text)).toEqual({ messages: 12, bytes: 48213, sha256: SHA });
  });

  it('should hoist the pins verbatim, in order, then the tombstone with its handle', () => {
    const pins = [`${GOAL_MARKER} keep parse() backward-compatible`, `line one\n${GOAL_MARKER} "quoted" \\ and more`];

    const text = renderSpanStub({ ...SPAN, first: 3, last: 3, pins, tombstone: 'Port the decoder.' }, DIR);

    expect(text.startsWith('[ctxshed: shed 1 earlier message of')).toBe(true);
    expect(text).toContain(`\n\nGoals pinned in the shed messages, verbatim:\n\n${pins[0]}\n\n${pins[1]}`);
    expect(text.endsWith(`\n\nOriginating task (shed with them): "Port the decoder." (handle ${SHA})`)).toBe(true);
  });
});

describe('renderSpanStub with notices', () => {
  it('should carry the notices verbatim after the pins and before the tombstone, and say nothing of them when there are none', () => {
    const notices = ['<system-reminder>\nThe following deferred tools are now available via ToolSearch.\nmcp__x__y\n</system-reminder>'];

    const text = renderSpanStub({ ...SPAN, pins: [`${GOAL_MARKER} go`], notices, tombstone: 'Port it.' }, DIR);

    expect(text).toContain(
      `\n\nGoals pinned in the shed messages, verbatim:\n\n${GOAL_MARKER} go\n\nNotices from the shed messages, still in force, verbatim:\n\n${notices[0]}\n\nOriginating task`,
    );
    expect(parseSpanStub(text)).toEqual({ messages: 12, bytes: 48213, sha256: SHA });
    expect(renderSpanStub(SPAN, DIR)).not.toContain('Notices');
  });
});

describe("renderSpanStub with the person's latest prompt", () => {
  it('should carry the prompt verbatim after the notices and before the tombstone', () => {
    const text = renderSpanStub({ ...SPAN, notices: ['n'], prompt: 'continue until all are done\n  please', tombstone: 'Port it.' }, DIR);

    expect(text).toContain("\n\nn\n\nThe person's latest prompt (shed with them), verbatim:\n\ncontinue until all are done\n  please\n\nOriginating task");
    expect(parseSpanStub(text)).toEqual({ messages: 12, bytes: 48213, sha256: SHA });
    expect(renderSpanStub(SPAN, DIR)).not.toContain('latest prompt');
  });
});

describe('spanStubMessage', () => {
  it('should be one user message whose content is the stub text', () => {
    const span = { ...SPAN, pins: [`${GOAL_MARKER} "q" \u2028 😀`] };

    const message = JSON.parse(fromUtf8(spanStubMessage(span, DIR))) as unknown;

    expect(message).toEqual({ role: 'user', content: renderSpanStub(span, DIR) });
  });
});

describe('parseSpanStub', () => {
  it('should read back what a stub says, pins and tombstone or not', () => {
    const text = renderSpanStub({ ...SPAN, pins: ['p'], tombstone: 't' }, '/tmp/a dir/with ] bracket');

    expect(parseSpanStub(text)).toEqual({ messages: 12, bytes: 48213, sha256: SHA });
  });

  it('should refuse text that is not a span stub', () => {
    expect(parseSpanStub('hello')).toBeUndefined();
    expect(parseSpanStub(renderSpanStub(SPAN, DIR).replace(`${SHA}.md`, `${'cd'.repeat(32)}.md`))).toBeUndefined();
    expect(parseSpanStub('[ctxshed: shed 12 earlier messages')).toBeUndefined();
  });
});

describe('spanFilePath and estimateSpanTokens', () => {
  it('should name the files by the handle and estimate a quarter token a byte', () => {
    expect(spanFilePath(DIR, SHA, 'md')).toBe(`${DIR}/${SHA}.md`);
    expect(estimateSpanTokens(10)).toBe(3);
  });
});
