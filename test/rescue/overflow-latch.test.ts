import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { NO_METRICS } from '../../src/metrics/metrics.js';
import { ConversationTable } from '../../src/rescue/conversation-table.js';
import { engineSettingsOf } from '../../src/rescue/engine-settings.js';
import type { LatchContext } from '../../src/rescue/latch-conversation.js';
import { latchKinds } from '../../src/rescue/latch-kinds.js';
import { latchOnOverflow } from '../../src/rescue/overflow-latch.js';
import { spanPath, type StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { conversation, filler, sha256 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { CLASSIC } from '../support/classic-settings.js';
import { blocksOf } from '../../src/core/epoch-items.js';
import { spanOf } from '../../src/core/epoch-items.js';

const BODY = conversation(Array.from({ length: 10 }, (_, i) => filler(4000, i)));
const KEY = '1'.repeat(64);
/** Four old results of 8,000 bytes, then six small ones: messages 1 to 8 are the span. */
const SHED_BODY = conversation(Array.from({ length: 10 }, (_, i) => (i < 4 ? filler(8000, i) : `small ${i}`)));

function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

const kindNamed = (tag: string) => latchKinds().find((k) => k.tag === tag)!;

let state: StateDir;
let ctx: LatchContext;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-overflow-'));
  ctx = { table: new ConversationTable(state), settings: engineSettingsOf(CLASSIC), now: () => '2026-03-04T05:06:07.000Z', metrics: NO_METRICS };
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true });
});

const refused = (tokens: number, limit?: number) => ({
  body: BODY,
  index: mustIndex(BODY),
  agentId: undefined,
  window: 10_000,
  sentBytes: BODY.length,
  overflow: limit === undefined ? { tokens } : { tokens, limit },
});

describe('latchOnOverflow of the tool-result kind', () => {
  it("should write an overflow epoch with the API's count as its reading", async () => {
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(ctx, kindNamed('tool_results'), entry, refused(12_000, 10_000), () => undefined);

    expect(latch).toEqual({ kind: 'latched', n: 1 });
    const record = await readConversation(state, KEY);
    expect(record?.epochs[0]).toMatchObject({
      n: 1,
      trigger: 'overflow',
      latchedAt: '2026-03-04T05:06:07.000Z',
      reason: { contextTokens: 12_000, window: 10_000, limit: 10_000 },
    });
    expect(blocksOf(record!.epochs[0]!)).toHaveLength(4);
  });

  it('should measure against the window when the error named no maximum, and record none', async () => {
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(ctx, kindNamed('tool_results'), entry, refused(12_000), () => undefined);

    expect(latch.kind).toBe('latched');
    expect((await readConversation(state, KEY))?.epochs[0]?.reason.limit).toBeUndefined();
  });

  it('should decline, writing nothing, when too little can be freed', async () => {
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(ctx, kindNamed('tool_results'), entry, refused(50_000, 10_000), () => undefined);

    expect(latch).toEqual({ kind: 'declined', why: 'not_enough' });
    expect(await readConversation(state, KEY)).toBeUndefined();
  });
});

const shedRefused = (tokens: number, limit?: number) => ({
  body: SHED_BODY,
  index: mustIndex(SHED_BODY),
  agentId: undefined,
  window: 10_000,
  sentBytes: SHED_BODY.length,
  overflow: limit === undefined ? { tokens } : { tokens, limit },
});

describe('latchOnOverflow of the span kind', () => {
  it("should write a shed epoch with the overflow trigger, the API's count as its reading, and its span file first", async () => {
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(ctx, kindNamed('span'), entry, shedRefused(12_000, 10_000), () => undefined);

    expect(latch).toEqual({ kind: 'latched', n: 1 });
    const epoch = (await readConversation(state, KEY))!.epochs[0]!;
    expect(epoch).toMatchObject({
      n: 1,
      kind: 'span',
      trigger: 'overflow',
      latchedAt: '2026-03-04T05:06:07.000Z',
      items: { span: [{ first: 1, last: 6 }] },
      reason: { contextTokens: 12_000, window: 10_000, limit: 10_000 },
      gate: { latch: true },
    });
    expect(sha256(await fs.readFile(spanPath(state, spanOf(epoch)!.sha256, 'json')))).toBe(spanOf(epoch)!.sha256);
  });

  it('should decline, writing nothing, when the span cannot bring the request under the maximum', async () => {
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(ctx, kindNamed('span'), entry, shedRefused(12_000, 100), () => undefined);

    expect(latch).toEqual({ kind: 'declined', why: 'not_enough' });
    expect(await readConversation(state, KEY)).toBeUndefined();
  });

  it('should decline with the shed refusal when there is no span to shed', async () => {
    const short = conversation(['only one']);
    const entry = await ctx.table.get(KEY);

    const latch = await latchOnOverflow(
      ctx,
      kindNamed('span'),
      entry,
      { ...shedRefused(12_000, 10_000), body: short, index: mustIndex(short), sentBytes: short.length },
      () => undefined,
    );

    expect(latch).toMatchObject({ kind: 'declined', why: 'nothing_new', detail: expect.stringContaining('too_few_messages') as unknown });
  });
});
