/**
 * `npm run bench`: runs every benchmark section, or only those named on the command line
 * (`node dist/test/bench/run.js core`). Add a section by adding an entry to SECTIONS.
 */
import { runCoreBench } from './core-bench.js';
import { runIncrementalBench } from './incremental-bench.js';
import { runMetricsBench } from './metrics-bench.js';
import { runProxyBench } from './proxy-bench.js';
import { runRecordBench } from './record-bench.js';
import { runRefusedBench } from './refused-bench.js';
import { runReplayBench } from './replay-bench.js';
import { runStoreBench } from './store-bench.js';

const SECTIONS: Readonly<Record<string, () => unknown>> = {
  core: () => runCoreBench(),
  incremental: () => runIncrementalBench(),
  refused: () => runRefusedBench(),
  proxy: () => runProxyBench(),
  metrics: () => runMetricsBench(),
  records: () => runRecordBench(),
  store: () => runStoreBench(),
  replay: () => runReplayBench(),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`unknown bench section(s): ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}
const started = performance.now();
for (const [name, run] of Object.entries(SECTIONS)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  await run();
  console.log('');
}
console.log(`bench done in ${((performance.now() - started) / 1000).toFixed(1)} s (node ${process.version})`);
