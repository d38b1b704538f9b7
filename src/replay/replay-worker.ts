/**
 * A worker thread of the replay pool (replay-pool.ts): it takes jobs one at a time, replays each
 * (replay-job.ts) and posts back its progress and its report, or why it failed.
 */
import { parentPort } from 'node:worker_threads';
import { errorText } from '../errors.js';
import { runReplayJob } from './replay-job.js';
import type { FromWorker, ToWorker } from './replay-pool-messages.js';

const port = parentPort;
if (port === null) throw new Error('replay-worker.js runs as a worker thread of the replay pool (replay-pool.ts)');
port.on('message', (message: ToWorker) => {
  const post = (reply: FromWorker): void => port.postMessage(reply);
  const { id, job } = message;
  runReplayJob(job, () => post({ kind: 'step', id })).then(
    (report) => post({ kind: 'done', id, report }),
    (error: unknown) => post({ kind: 'failed', id, name: error instanceof Error ? error.name : 'Error', message: errorText(error) }),
  );
});
