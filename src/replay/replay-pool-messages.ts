/** What the replay pool (replay-pool.ts) and its workers (replay-worker.ts) say to each other: plain data, cloned across threads. */
import type { ReplayJob } from './replay-job.js';
import type { SessionReport } from './session-report.js';

/** A job for a worker, numbered by its place in the pool's list. */
export interface ToWorker {
  readonly id: number;
  readonly job: ReplayJob;
}

/** A request of job `id` replayed, its report, or why it failed (the error's name and message). */
export type FromWorker =
  | { readonly kind: 'step'; readonly id: number }
  | { readonly kind: 'done'; readonly id: number; readonly report: SessionReport }
  | { readonly kind: 'failed'; readonly id: number; readonly name: string; readonly message: string };
