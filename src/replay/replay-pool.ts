/**
 * Replays run side by side on the machine's cores: each job (one session, on one basis:
 * replay-job.ts) goes to the next free worker thread (replay-worker.ts), which reads the session
 * itself, so nothing but the file's name and the report crosses between threads. Each job gets
 * its own fresh state directories, so a job's figures are the same on any thread and in any order;
 * the reports come back in the order of the jobs. With one worker, or where the worker's compiled
 * file is not there (the sources run by a test runner), the jobs run one by one in this thread.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TranscriptInputError } from './read-sessions.js';
import { type ReplayJob, runReplayJob } from './replay-job.js';
import type { FromWorker, ToWorker } from './replay-pool-messages.js';
import type { SessionReport } from './session-report.js';

/** How to run the jobs. */
export interface PoolOptions {
  /** Worker threads at most (the CLI: the cores the machine offers); 1 or fewer: in this thread. */
  readonly workers: number;
  /** Told after each request a job replays, with the job's place in the list. */
  readonly onStep?: (job: number) => void;
  /** Told when a job is done. */
  readonly onDone?: (job: number) => void;
}

const WORKER_URL = new URL('./replay-worker.js', import.meta.url);

/** Runs every job; the reports in the jobs' order. The first failure rejects (the other workers are stopped). */
export async function runReplayJobs(jobs: readonly ReplayJob[], options: PoolOptions): Promise<SessionReport[]> {
  const threads = Math.min(options.workers, jobs.length);
  if (threads <= 1 || !fs.existsSync(fileURLToPath(WORKER_URL))) return runHere(jobs, options);
  const reports: SessionReport[] = new Array(jobs.length);
  const workers = Array.from({ length: threads }, () => new Worker(WORKER_URL));
  try {
    let next = 0;
    await Promise.all(
      workers.map(async (worker) => {
        for (let id = next++; id < jobs.length; id = next++) {
          reports[id] = await runOn(worker, id, jobs[id]!, options);
          options.onDone?.(id);
        }
      }),
    );
    return reports;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

async function runHere(jobs: readonly ReplayJob[], options: PoolOptions): Promise<SessionReport[]> {
  const reports: SessionReport[] = [];
  for (const [id, job] of jobs.entries()) {
    reports.push(await runReplayJob(job, () => options.onStep?.(id)));
    options.onDone?.(id);
  }
  return reports;
}

/** Hands one job to a worker and waits for its report. */
function runOn(worker: Worker, id: number, job: ReplayJob, options: PoolOptions): Promise<SessionReport> {
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
