import { describe, expect, it } from 'vitest';
import type { FrozenBlock } from '../../src/core/index.js';
import type { ApiMessage } from '../../src/replay/rebuild-conversations.js';
import { ReplayRefaults } from '../../src/replay/replay-refaults.js';

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
