/**
 * `ctxshed replay`'s replays of the sessions it read, at one set of options or several (one per
 * window of `--figures` and `--whole-figures`): every session up to its first compaction and whole,
 * all of them as one list of jobs on the replay pool (src/replay/replay-pool.ts), then each session's
 * two reports joined into one. Progress goes to `progress` as the jobs run.
 */
import type { SessionInput } from '../replay/read-sessions.js';
import { jobSize, type JobOptions, type ReplayJob } from '../replay/replay-job.js';
import type { ReplayPool } from '../replay/replay-pool.js';
import { withWholeSession, type WholeSessionReport } from '../replay/whole-session-figures.js';
import type { ReplayProgress } from './replay-progress.js';

/** The reports of every session with requests, for each options set, in the order given, replayed on `pool`. */
export async function replayRuns(
  sessions: readonly SessionInput[],
  runs: readonly JobOptions[],
  pool: ReplayPool,
  progress?: ReplayProgress,
): Promise<WholeSessionReport[][]> {
  const replayed = sessions.filter((s) => s.conversations.length > 0);
  const jobs: ReplayJob[] = runs.flatMap((options) =>
    replayed.flatMap((s) => [
      { file: s.file, basis: 'firstCompaction' as const, options },
      { file: s.file, basis: 'wholeSession' as const, options },
    ]),
  );
  progress?.start(jobs.map((job, i) => jobSize(job, replayed[Math.floor(i / 2) % replayed.length]!)));
  const reports = await pool
    .run(jobs, {
      sessions: new Map(replayed.map((s) => [s.file, s])),
      ...(progress === undefined ? {} : { onStep: (job: number) => progress.step(job), onDone: (job: number) => progress.done(job) }),
    })
    .finally(() => progress?.finish());
  return runs.map((_, r) =>
    replayed.map((session, s) => {
      const at = (r * replayed.length + s) * 2;
      const estimated = session.stitched.conversations.reduce((n, c) => n + c.requests.filter((q) => q.estimated === true).length, 0);
      const stitch = { compactions: session.stitched.boundaries.length, estimated };
      return { ...withWholeSession(reports[at]!, reports[at + 1]!, stitch), skippedLines: session.skippedLines };
    }),
  );
}
