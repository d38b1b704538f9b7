import { describe, expect, it } from 'vitest';
import { RESTORE_TOOL_NAME } from '../../src/core/detect-refaults.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { replaySession } from '../../src/replay/replay-session.js';
import { renderTable } from '../../src/replay/render-table.js';
import { WorkingSetTally } from '../../src/replay/working-set-tally.js';
import type { Prepared } from '../../src/rescue/index.js';
import { assistant, user } from './fixtures.js';
import { useReplayDirs } from './replay-dirs.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const options = useReplayDirs('replay-ws').options;

/** A step of the session: the person's prompt, a Read of a project file, or a restore of a stored text; each with its answer's size. */
type Step = { readonly prompt: string } | { readonly read: string; readonly bytes: number } | { readonly restore: string; readonly bytes: number };

/**
 * A transcript of `steps` after a first prompt. Its usage is 2,000 tokens of system prompt and
 * tools plus a quarter token per byte sent, all read from the cache but the newest turn.
 */
function session(steps: readonly Step[]): string[] {
  const lines = [user('read the project')];
  const sent: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'read the project' }] }];
  let before = 0;
  const usage = (): Record<string, number> => {
    const total = 2000 + Math.round(JSON.stringify(sent).length / 4);
    const u = { input_tokens: 3, cache_read_input_tokens: before, cache_creation_input_tokens: total - before - 3 };
    before = total;
    return u;
  };
  steps.forEach((step, i) => {
    if ('prompt' in step) {
      const said = { type: 'text', text: `done ${i}` };
      lines.push(assistant(`msg_${i}`, said, usage()), user(step.prompt));
      sent.push({ role: 'assistant', content: [said] }, { role: 'user', content: [{ type: 'text', text: step.prompt }] });
      return;
    }
    const use =
      'read' in step
        ? { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: step.read } }
        : { type: 'tool_use', id: `toolu_${i}`, name: RESTORE_TOOL_NAME, input: { handle: step.restore } };
    const result = { tool_use_id: `toolu_${i}`, type: 'tool_result', content: `${i} `.padEnd(step.bytes, 'x') };
    lines.push(assistant(`msg_${i}`, use, usage()), user([result]));
    sent.push({ role: 'assistant', content: [use] }, { role: 'user', content: [result] });
  });
  return lines;
}

const reads = (n: number, bytes: number): Step[] => Array.from({ length: n }, (_, i) => ({ read: `/p/${i}.ts`, bytes }));
const restores = (n: number, bytes: number): Step[] => Array.from({ length: n }, (_, i) => ({ restore: String(i).repeat(64), bytes }));

describe('replay: the working set', () => {
  it('should count the thrash holds of a burst of restores after the prompt, and the working set they make', async () => {
    // Arrange: a few reads, the person's prompt, then four large restores and a few small reads:
    // what would be worth taking out is the restores' answers, the working set
    const steps: Step[] = [...reads(3, 2_000), { prompt: 'check your work' }, ...restores(4, 20_000), ...reads(6, 100)];

    // Act
    const report = await replaySession('x.jsonl', rebuildConversations(session(steps), 'x.jsonl'), options({ window: 30_000 }));

    // Assert: both engines held as a thrash, and latched nothing
    const { rescue, shed } = report.workingSet;
    expect(report.strategies.rescue.epochs).toBe(0);
    expect(report.strategies.shed.epochs).toBe(0);
    expect(rescue.thrashHolds).toBeGreaterThan(0);
    expect(shed.thrashHolds).toBeGreaterThan(0);
    expect(shed.thrashHolds).toBe(report.shedHeld.requests.working_set_thrash);
    expect(rescue.exceedsWindowHolds + shed.exceedsWindowHolds).toBe(0);
    // Its peak: the four answers at the last request, 4 x 20,000 bytes and their JSON.
    expect(shed.peakBytes).toBeGreaterThanOrEqual(80_000);
    expect(shed.peakBytes).toBeLessThan(81_000);
    expect(shed.peakTokens).toBe(Math.round(shed.peakBytes * report.calibration.tokensPerByte));
    // Every request from the one that holds the first restore's answer on: three restores and six reads.
    expect(shed.requestsWithWorkingSet).toBe(9);
    expect(rescue).toMatchObject({ peakBytes: shed.peakBytes, requestsWithWorkingSet: 9 });
    // One note line in the text report.
    const notes = renderTable([report], { width: 1000, compact: false })
      .split('\n')
      .filter((l) => l.includes('working set:'));
    expect(notes).toEqual([expect.stringContaining(`shed ${shed.thrashHolds} thrash / 0 over-window hold(s), peak 78 KiB`)]);
  });

  it('should report an empty working set where nothing was brought back', async () => {
    // Act
    const report = await replaySession('x.jsonl', rebuildConversations(session(reads(12, 8_000)), 'x.jsonl'), options({ window: 30_000 }));

    // Assert
    const none = { thrashHolds: 0, exceedsWindowHolds: 0, peakBytes: 0, peakTokens: 0, requestsWithWorkingSet: 0 };
    expect(report.workingSet).toEqual({ rescue: none, shed: none });
    expect(renderTable([report])).not.toContain('working set:');
  });

  it('should count a hold for a working set over the window apart from a thrash', () => {
    // Arrange: the engine's own holds, as Prepared carries them
    const tally = new WorkingSetTally();
    const prepared = (reason?: string): Prepared =>
      ({
        body: new Uint8Array(),
        epochs: 0,
        reason: 'no_epoch',
        detail: '',
        ...(reason === undefined ? { outcome: 'passthrough' } : { outcome: 'held', hold: { reason } }),
      }) as unknown as Prepared;

    // Act
    for (const reason of ['working_set_exceeds_window', 'working_set_exceeds_window', 'working_set_thrash', 'gate', undefined])
      tally.add(utf8('{}'), prepared(reason), 0.25);

    // Assert
    expect(tally.figure()).toEqual({ thrashHolds: 1, exceedsWindowHolds: 2, peakBytes: 0, peakTokens: 0, requestsWithWorkingSet: 0 });
  });
});
