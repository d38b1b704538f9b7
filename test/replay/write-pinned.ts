/**
 * Writes the pinned replay figures again (test/fixtures/replay/pinned/): run it only where a change
 * moves the figures on purpose, and say in the commit which figures moved and why. It runs the
 * built CLI: `npx tsc -p tsconfig.json && npx tsx test/replay/write-pinned.ts`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PINNED_DIR, PINNED_RUNS, runPinned } from './pinned-run.js';

await fs.mkdir(PINNED_DIR, { recursive: true });
for (const run of PINNED_RUNS) {
  const json = await runPinned(run.args);
  await fs.writeFile(path.join(PINNED_DIR, run.name), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`wrote ${path.join(PINNED_DIR, run.name)}`);
}
