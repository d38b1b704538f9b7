import { describe, expect, it } from 'vitest';
import { ReplayProgress, type ProgressStream } from '../../src/cli/replay-progress.js';

/** A stream that keeps what is written, and a clock the test moves. */
function setUp(isTTY: boolean): { stream: ProgressStream & { text: string }; clock: { ms: number }; progress: ReplayProgress } {
  const stream = {
    isTTY,
    columns: 60,
    text: '',
    write(t: string) {
      this.text += t;
      return true;
    },
  };
  const clock = { ms: 1_000 };
  return { stream, clock, progress: new ReplayProgress(stream, () => clock.ms) };
}

describe('ReplayProgress', () => {
  it('should draw one line over itself on a terminal, no wider than it, after a pause, and wipe it at the end', () => {
    // Arrange
    const { stream, clock, progress } = setUp(true);
    progress.start([100, 300]);

    // Act
    progress.step(0);
    const early = stream.text;
    clock.ms += 600;
    progress.step(0);
    clock.ms += 50;
    progress.step(1);
    const throttled = stream.text;
    clock.ms += 300;
    progress.done(0);
    progress.finish();

    // Assert
    expect(early).toBe('');
    expect(throttled.match(/\r/g)).toHaveLength(1);
    expect(stream.text).toContain('\rctxshed replay: 101 of 400 requests');
    for (const line of stream.text.split('\r')) expect(line.replace('\x1b[K', '').length).toBeLessThan(60);
    expect(stream.text.endsWith('\r\x1b[K')).toBe(true);
    expect(progress.line()).toBe('ctxshed replay: 101 of 400 requests replayed (25%), 1 of 2 replays done, 0 s');
  });

  it('should write nothing when stderr is not a terminal', () => {
    // Arrange
    const { stream, clock, progress } = setUp(false);
    progress.start([10]);

    // Act
    for (let i = 0; i < 10; i++) {
      clock.ms += 1_000;
      progress.step(0);
    }
    progress.done(0);
    progress.finish();

    // Assert
    expect(stream.text).toBe('');
  });
});
