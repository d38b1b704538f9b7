/**
 * Replays run side by side on the machine's cores: each job (one session, on one basis:
 * replay-job.ts) goes to whichever is free of this thread and the pool's worker threads
 * (replay-worker.ts). A worker reads the session itself, so nothing but the file's name and the
 * report crosses between threads; this thread replays the sessions it was handed already read.
 * Each job gets its own fresh state directories, so a job's figures are the same on any thread and
 * in any order; the reports come back in the order of the jobs. Where the worker's compiled file
 * is not there (the sources, run by a test runner), the pool has no workers and this thread runs
 * every job.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TranscriptInputError, type SessionInput } from './read-sessions.js';
import { type ReplayJob, runReplayJob } from './replay-job.js';
import type { FromWorker, ToWorker } from './replay-pool-messages.js';
import type { SessionReport } from './session-report.js';

/** How to run a list of jobs. */
export interface RunOptions {
  /** Sessions already read, by file: a job this thread runs on one of them does not read it again. */
  readonly sessions?: ReadonlyMap<string, SessionInput>;
  /** Told after each request a job replays, with the job's place in the list. */
  readonly onStep?: (job: number) => void;
  /** Told when a job is done. */
  readonly onDone?: (job: number) => void;
}

const WORKER_URL = new URL('./replay-worker.js', import.meta.url);

/** This thread and some worker threads, started before the jobs are known (a worker takes a while to load). */
export class ReplayPool {
  private constructor(private readonly workers: readonly Worker[]) {}

  /**
   * A pool with `workers` worker threads beside this one (none where the worker's file is not
   * built). An idle pool never keeps the process alive: it may be opened early and left.
   */
  static open(workers: number): ReplayPool {
    const n = workers >= 1 && fs.existsSync(fileURLToPath(WORKER_URL)) ? Math.floor(workers) : 0;
    const threads = Array.from({ length: n }, () => new Worker(WORKER_URL));
    for (const w of threads) w.unref();
    return new ReplayPool(threads);
  }

  /** Runs every job; the reports in the jobs' order. The first failure rejects, once every job begun has ended. */
  async run(jobs: readonly ReplayJob[], options: RunOptions = {}): Promise<SessionReport[]> {
    const reports: SessionReport[] = new Array(jobs.length);
    let next = 0;
    let failed = false;
    const take = async (replay: (id: number, job: ReplayJob) => Promise<SessionReport>): Promise<void> => {
      for (let id = next++; id < jobs.length && !failed; id = next++) {
        try {
          reports[id] = await replay(id, jobs[id]!);
        } catch (error) {
          failed = true;
          throw error;
        }
        options.onDone?.(id);
      }
    };
    const here = (id: number, job: ReplayJob): Promise<SessionReport> => runReplayJob(job, () => options.onStep?.(id), options.sessions?.get(job.file));
    // While a worker holds a job, the process waits for it.
    for (const w of this.workers) w.ref();
    const results = await Promise.allSettled([take(here), ...this.workers.map((w) => take((id, job) => runOn(w, id, job, options)))]);
    for (const w of this.workers) w.unref();
    const failure = results.find((r) => r.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
    return reports;
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Runs the jobs on a pool of `workers` worker threads and this one, closed after. */
export async function runReplayJobs(jobs: readonly ReplayJob[], workers: number, options: RunOptions = {}): Promise<SessionReport[]> {
  const pool = ReplayPool.open(Math.min(workers, jobs.length - 1));
  try {
    return await pool.run(jobs, options);
  } finally {
    await pool.close();
  }
}

/** Hands one job to a worker and waits for its report. */
function runOn(worker: Worker, id: number, job: ReplayJob, options: RunOptions): Promise<SessionReport> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: FromWorker): void => {
      if (reply.id !== id) return;
      if (reply.kind === 'step') {
        options.onStep?.(id);
        return;
      }
      cleanUp();
      if (reply.kind === 'done') resolve(reply.report);
      else reject(reply.name === 'TranscriptInputError' ? new TranscriptInputError(reply.message) : new Error(reply.message));
    };
    // A worker that dies (out of memory, a crash in a module it loads) fails the job it held.
    const onError = (error: Error): void => {
      cleanUp();
      reject(error);
    };
    const onExit = (code: number): void => {
      cleanUp();
      reject(new Error(`a replay worker stopped (exit code ${code}) while replaying ${job.file}`));
    };
    const cleanUp = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, job } satisfies ToWorker);
  });
}
