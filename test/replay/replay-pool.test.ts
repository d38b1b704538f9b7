import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ReplayJob } from '../../src/replay/replay-job.js';
import { fixturePath } from './fixtures.js';

/**
 * The pool as built (dist/): there its worker file exists, so the jobs run on worker threads; from
 * the sources (as vitest runs them) the pool runs them in this thread. Both must give the same
 * reports, in the jobs' order.
 */
const built = new URL('../../dist/src/replay/replay-pool.js', import.meta.url);
type Pool = typeof import('../../src/replay/replay-pool.js');
const options = { settings: { threshold: 0.7, keepRecent: 2, minBytes: 1024, window: 60_000 } };
const jobs: ReplayJob[] = ['subagent.jsonl', 'tool_heavy.jsonl', 'short.jsonl'].flatMap((name) => [
  { file: fixturePath(name), basis: 'firstCompaction' as const, options },
  { file: fixturePath(name), basis: 'wholeSession' as const, options },
]);

describe('runReplayJobs', () => {
  it.skipIf(!fs.existsSync(built))('should give on worker threads and this one the reports the jobs give one by one in this thread, in order', async () => {
    // Arrange
    const { runReplayJobs } = (await import(built.href)) as Pool;
    const steps: number[] = jobs.map(() => 0);
    const done: number[] = [];

    // Act
    const onThreads = await runReplayJobs(jobs, 2, { onStep: (job) => steps[job]!++, onDone: (job) => done.push(job) });
    const here = await runReplayJobs(jobs, 0);

    // Assert
    expect(onThreads).toEqual(here);
    expect(onThreads.map((r) => r.file)).toEqual(jobs.map((j) => j.file));
    expect(steps.every((n) => n > 0)).toBe(true);
    expect(done.sort()).toEqual(jobs.map((_, i) => i));
  });

  it.skipIf(!fs.existsSync(built))('should reject with the failing job named, and stop its workers', async () => {
    // Arrange
    const { runReplayJobs } = (await import(built.href)) as Pool;
    const missing: ReplayJob = { file: fixturePath('no-such-session.jsonl'), basis: 'firstCompaction', options };

    // Act / Assert
    await expect(runReplayJobs([jobs[0]!, missing, jobs[1]!], 2)).rejects.toThrow('no-such-session.jsonl');
  });
});
