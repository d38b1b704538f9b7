/**
 * The killed-serve probe of issue 41: a `ctxshed serve` process with four conversations running at
 * once is killed -9 in the middle of a latch (CTXSHED_TEST_CRASH_AT=latch-after-all-files: its
 * conversation lock is left behind, fresh), a new one starts on the same directory and port, and
 * each conversation's next request is timed. Prints, per run, the restart and the slowest and
 * median first answers. Figures for docs/reliability.md, not a test threshold. Run:
 *
 *   npx tsx test/bench/killed-latch.ts [runs=3]
 */
import { ScriptedClient } from '../../src/scripted/client.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve } from '../reliability/serve-session.js';

const runs = Number(process.argv[2] ?? 3);
const CONVERSATIONS = 4;

async function runOnce(): Promise<{ restartMs: number; firstMs: number[] }> {
  const dir = await tempStateDir('ctxshed-killed-latch-');
  const upstream = await startMessagesApi();
  const args = ['--state', dir, '--upstream', upstream.url, '--window', '20000'];
  const first = await serve(args, { CTXSHED_TEST_CRASH_AT: 'latch-after-all-files' });
  const clients = Array.from({ length: CONVERSATIONS }, (_, i) => new ScriptedClient(first.url, { prompt: `Please read project ${i}.` }));
  // Each conversation turns until the process dies under one of them.
  await Promise.all(
    clients.map(async (client) => {
      for (let turn = 0; turn < 60 && first.child.exitCode === null && first.child.signalCode === null; turn++) {
        const ok = await client.turnOnce().then(
          () => true,
          () => false,
        );
        if (!ok) return;
      }
    }),
  );
  await first.exited;
  const started = Date.now();
  const second = await serve([...args, '--port', new URL(first.url).port]);
  const restartMs = Date.now() - started;
  const firstMs = await Promise.all(
    clients.map(async (client) => {
      const t = Date.now();
      await client.turnOnce().catch(() => undefined);
      return Date.now() - t;
    }),
  );
  for (const client of clients) client.close();
  await second.stop();
  await upstream.close();
  return { restartMs, firstMs };
}

for (let run = 1; run <= runs; run++) {
  const { restartMs, firstMs } = await runOnce();
  const sorted = [...firstMs].sort((a, b) => a - b);
  console.log(`run ${run}: restart ${restartMs} ms; first answers ${firstMs.join(', ')} ms (median ${sorted[sorted.length >> 1]}, slowest ${sorted.at(-1)})`);
}
