import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { type ApiMessage, rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { ReplayRefaults } from '../../src/replay/replay-refaults.js';
import { type ReplayOptions, replaySession, replayWholeSession } from '../../src/replay/replay-session.js';
import { markEstimated, stitchTranscript } from '../../src/replay/stitch-transcript.js';
import { withWholeSession } from '../../src/replay/whole-session-figures.js';
import { assistant, line, user } from './fixtures.js';

const read = (id: string, filePath: string): object => ({ type: 'tool_use', id, name: 'Read', input: { file_path: filePath } });
const result = (id: string): object => ({ type: 'tool_result', tool_use_id: id, content: 'text' });
const frozen = (ordinal: number, toolUseId: string): FrozenBlock => ({
  ordinal,
  toolUseId,
  bytes: 2000,
  sha256: 'a'.repeat(64),
  jsonBytes: 2002,
  jsonSha256: 'b'.repeat(64),
});

/** A transcript: a prompt, then each call and its result, in turns. */
function transcript(...turns: object[][]): ApiMessage[] {
  const messages: ApiMessage[] = [{ role: 'user', content: ['go'] }];
  for (const calls of turns) {
    messages.push({ role: 'assistant', content: calls });
    messages.push({ role: 'user', content: calls.map((c) => result((c as { id: string }).id)) });
  }
  return messages;
}

describe('ReplayRefaults', () => {
  it('should count a later Read of a file whose earlier result was elided, once per call', () => {
    const refaults = new ReplayRefaults();
    const before = transcript([read('t1', '/src/a.ts')], [read('t2', '/src/b.ts')]);
    refaults.observe('c', before);
    refaults.elide('c', 1, before, [frozen(0, 't1'), frozen(1, 't2')]);
    const after = transcript([read('t1', '/src/a.ts')], [read('t2', '/src/b.ts')], [read('t3', '/src/a.ts')]);

    refaults.observe('c', after);
    refaults.observe('c', after); // the same request again: its newest calls were counted

    expect(refaults.figure(2)).toEqual({ blocksElided: 2, blocksRefaulted: 1, refaults: 1, rate: 0.5 });
  });

  it('should not count a Read before the block was elided, nor in another conversation, nor other tools', () => {
    const refaults = new ReplayRefaults();
    const messages = transcript(
      [read('t1', '/src/a.ts')],
      [read('t2', '/src/a.ts')],
      [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'cat /src/a.ts' } }],
    );

    refaults.observe('c', messages);
    refaults.elide('c', 1, messages, [frozen(0, 't1')]);
    refaults.observe('other', transcript([read('t9', '/src/a.ts')]));
    refaults.observe('c', messages);

    expect(refaults.figure(1)).toEqual({ blocksElided: 1, blocksRefaulted: 0, refaults: 0, rate: 0 });
    expect(new ReplayRefaults().figure(0).rate).toBeNull();
  });
});

describe('refaults over the whole session', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'whole-refaults-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Three Reads, a compaction, then the first file read again: a read-back only the whole session has. */
  function session(): string[] {
    const at = (s: number): string => new Date(Date.parse('2026-02-10T22:58:00.000Z') + s * 1000).toISOString();
    const readCall = (id: string, file: string): object => ({ type: 'tool_use', id, name: 'Read', input: { file_path: file } });
    const result = (id: string, fill: string): object => ({ type: 'tool_result', tool_use_id: id, content: fill.repeat(3000) });
    return [
      user('go'),
      assistant('msg_1', readCall('t1', '/a.ts'), {}, at(1)),
      user([result('t1', 'x')]),
      assistant('msg_2', readCall('t2', '/b.ts'), {}, at(2)),
      user([result('t2', 'y')]),
      assistant('msg_3', readCall('t3', '/c.ts'), {}, at(3)),
      user([result('t3', 'z')]),
      assistant('msg_4', { type: 'text', text: 'read them' }, {}, at(4)),
      line({ type: 'user', uuid: 'u-last', timestamp: at(5), message: { role: 'user', content: 'go on' } }),
      line({ type: 'system', subtype: 'compact_boundary', uuid: 'b', timestamp: at(6), logicalParentUuid: 'u-last', compactMetadata: { trigger: 'manual' } }),
      line({ type: 'user', uuid: 's', parentUuid: 'b', timestamp: at(6), isCompactSummary: true, message: { role: 'user', content: 'summary' } }),
      assistant('msg_5', readCall('t4', '/a.ts'), {}, at(7)),
      user([result('t4', 'x')]),
      assistant('msg_6', { type: 'text', text: 'done' }, {}, at(8)),
    ];
  }

  it('should count the read-backs after the first compaction point, per strategy', async () => {
    // Arrange: per-request rewriting stubs every result but the newest from the first request on
    const lines = session();
    const stitch = stitchTranscript(lines);
    const options = (n: string): ReplayOptions => ({
      settings: { threshold: 0.7, keepRecent: 1, minBytes: 1024, deep: 'none' },
      stateDir: path.join(dir, n),
      shedStateDir: path.join(dir, `${n}-shed`),
    });

    // Act
    const report = await replaySession('x.jsonl', rebuildConversations(lines, 'x.jsonl'), options('a'));
    const stitched = markEstimated(rebuildConversations(stitch.lines, 'x.jsonl'), stitch.boundaries);
    const whole = await replayWholeSession('x.jsonl', stitched, options('b'), report.compactionPoint);
    const figures = withWholeSession(report, whole, { compactions: 1, estimated: 2 });

    // Assert: up to the compaction nothing was read back; over the whole session /a.ts was, once
    expect(report.rewriteRefaults.perRequest.refaults).toBe(0);
    expect(figures.strategies.perRequest.wholeSession.refaults).toMatchObject({ blocksRefaulted: 1, refaults: 1 });
    expect(figures.strategies.perRequest.wholeSession.refaults?.blocksElided).toBeGreaterThanOrEqual(2);
    expect(figures.strategies.recorded.wholeSession.refaults).toBeNull();
    expect(figures.strategies.rescue.wholeSession.refaults).toEqual(whole.refaults);
    expect(figures.strategies.shed.wholeSession.refaults).toEqual(whole.shedRefaults);
    expect(figures.strategies.clearToolUses.wholeSession.refaults).toEqual(whole.rewriteRefaults.clearToolUses);
  });
});
