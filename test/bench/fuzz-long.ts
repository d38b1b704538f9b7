/**
 * The long fuzz of the running proxy (the bounded one is test/reliability/fuzz.test.ts).
 * Needs the built CLI (`npx tsc -p tsconfig.json`). Run:
 *
 *   npx tsx test/bench/fuzz-long.ts [count=20000] [seed=1]
 *
 * Prints the tally as JSON; failing bodies are saved to a temp directory it names. Exit 1 on any.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { verifyState } from '../../src/state/verify-state.js';
import { checkWireReasons, runFuzz } from '../reliability/fuzz-bodies.js';
import { startSession } from '../reliability/serve-session.js';

const count = Number(process.argv[2] ?? 20_000);
const seed = Number(process.argv[3] ?? 1);
const saveDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-fuzz-failures-'));
const started = performance.now();
const session = await startSession();
const corpus = { bodies: [...session.client.sent], rewritten: [] as Buffer[] };
session.received();
const tally = await runFuzz({
  proxyUrl: session.served.url,
  stateDir: session.dir,
  corpus,
  count,
  seed,
  received: session.received,
  saveDir,
  onProgress: (t) => process.stderr.write(`${t.sent} sent, ${t.identical} identical, ${t.rewritten} rewritten, ${t.failures.length} failures\n`),
});
const after = await session.client.turnOnce();
const alive = session.served.child.exitCode === null && after.status === 200;
await new Promise((resolve) => setTimeout(resolve, 500));
const wire = await checkWireReasons(session.dir);
const verify = await verifyState(session.dir);
await session.close();
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify(
    {
      count,
      seed,
      seconds: Math.round(seconds),
      alive,
      ...tally,
      wireReasons: wire.reasons,
      wireProblems: wire.problems,
      verifyProblems: verify.problems,
      saveDir,
    },
    null,
    2,
  ),
);
const ok = alive && tally.failures.length === 0 && wire.problems.length === 0 && verify.problems.length === 0;
if (ok) await fs.rm(saveDir, { recursive: true });
process.exit(ok ? 0 : 1);
