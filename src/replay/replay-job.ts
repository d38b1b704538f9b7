/**
 * One replay of one session, as a unit of work a worker thread can take (replay-pool.ts): the
 * session read from its file, replayed up to its first compaction or whole over two fresh state
 * directories (removed after: a replay never touches the user's real one), its report returned.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSession, type SessionInput } from './read-sessions.js';
import type { ReplayOptions } from './replay-options.js';
import { type OnStep, replaySession, replayWholeSession } from './replay-session.js';
import type { SessionReport } from './session-report.js';
import { compactionPointFor } from './session-run.js';
import { isCompactionConversation } from './session-steps.js';

/** What a job replays: one session file, on one basis, with the options less the state directories it makes itself. */
export interface ReplayJob {
  readonly file: string;
  /** `firstCompaction`: up to the session's first compaction (replaySession); `wholeSession`: its stitched history (replayWholeSession). */
  readonly basis: 'firstCompaction' | 'wholeSession';
  readonly options: JobOptions;
}

/** The replay's options without the state directories. */
export type JobOptions = Omit<ReplayOptions, 'stateDir' | 'shedStateDir'>;

/** The requests a job replays (it tells `onStep` after each), for its progress. */
export function jobSize(job: ReplayJob, session: SessionInput): number {
  if (job.basis === 'firstCompaction') return session.conversations.reduce((n, c) => n + c.requests.length, 0);
  // The whole session leaves the compaction calls out: without a compaction they never happen.
  return session.stitched.conversations.reduce((n, c) => n + (isCompactionConversation(c) ? 0 : c.requests.length), 0);
}

/**
 * Runs one job, on `read` when the session was read already (else it reads `job.file`). A session
 * that is not a transcript throws (read-sessions.ts `TranscriptInputError`).
 */
export async function runReplayJob(job: ReplayJob, onStep: OnStep = () => {}, read?: SessionInput): Promise<SessionReport> {
  const session = read ?? (await readSession(job.file));
  return withStateDirs(async (dirs) => {
    const options: ReplayOptions = { ...job.options, ...dirs };
    if (job.basis === 'firstCompaction') return replaySession(session.file, session.conversations, options, onStep);
    // The point of the session as recorded, as its first-compaction replay finds it.
    return replayWholeSession(session.file, session.stitched.conversations, options, compactionPointFor(session.conversations, options), onStep);
  });
}

/** Runs a replay over two fresh state directories (rescue's and shed's), removed after. */
async function withStateDirs<T>(run: (dirs: { stateDir: string; shedStateDir: string }) => Promise<T>): Promise<T> {
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-replay-'));
  const shedStateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-replay-shed-'));
  try {
    return await run({ stateDir, shedStateDir });
  } finally {
    await fs.rm(stateDir, { recursive: true, force: true });
    await fs.rm(shedStateDir, { recursive: true, force: true });
  }
}
