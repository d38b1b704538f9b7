/**
 * The engine's own work per request, with no socket: `EpochEngine.prepare` over Claude Code-shaped
 * conversations of about `bytes` growing one turn a request, 8 in turn, with an epoch latched on
 * each (`epoch`) or not (`plain`); prints the median process CPU time of one `prepare`, in ms. A
 * before/after of a change to the engine is this script run on each build, alternately:
 *   node dist/test/bench/prepare-cpu.js [plain|epoch] [bytes] [requests]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineSettingsOf, EpochEngine } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { quantile } from './measure.js';
import { GrowingConversation, latchFor } from './proxy-bench.js';

/** The first requests of each conversation (no memo yet) are left out of the median. */
const WARMUP_REQUESTS = 16;

const [mode = 'plain', bytesArg = '300000', countArg = '200'] = process.argv.slice(2);
if (!['plain', 'epoch'].includes(mode) || !(Number(bytesArg) > 0) || !(Number(countArg) > WARMUP_REQUESTS)) {
  console.error(`usage: prepare-cpu.js [plain|epoch] [bytes] [requests > ${WARMUP_REQUESTS}]`);
  process.exit(2);
}
const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-prepare-'));
const state = await openStateDir(stateDir);
const engine = new EpochEngine(state, engineSettingsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024 }));
const conversations = Array.from({ length: 8 }, (_, i) => new GrowingConversation(Number(bytesArg), 900 + i));
if (mode === 'epoch') for (const c of conversations) await latchFor(state, c.first);
const bodies = Array.from({ length: Number(countArg) }, (_, i) => conversations[i % conversations.length]!.next());
const cpu: number[] = [];
for (const [i, body] of bodies.entries()) {
  const c0 = process.cpuUsage();
  const prepared = await engine.prepare({ method: 'POST', target: '/v1/messages?beta=true', headers: {}, body });
  const c = process.cpuUsage(c0);
  if (i >= WARMUP_REQUESTS) cpu.push((c.user + c.system) / 1000);
  if (mode === 'epoch' && prepared.outcome !== 'rewritten') throw new Error(`not rewritten: ${prepared.reason}`);
}
console.log(
  `${mode} ${bytesArg} B x ${countArg}: median prepare CPU ${quantile(
    cpu.sort((a, b) => a - b),
    0.5,
  ).toFixed(3)} ms (load average ${os.loadavg()[0]!.toFixed(1)})`,
);
await engine.settle();
engine.close();
await fs.rm(stateDir, { recursive: true, force: true });
