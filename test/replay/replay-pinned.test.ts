import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED_DIR, PINNED_RUNS, runPinned } from './pinned-run.js';

/**
 * Every figure `replay --json` and `replay --whole-figures --json` give on the two shared sessions,
 * as pinned in test/fixtures/replay/pinned/ (write-pinned.ts): a change that makes replay faster
 * must leave them all equal; one that changes a figure on purpose writes them again and says why.
 */
describe('replay on the shared sessions', () => {
  for (const run of PINNED_RUNS) {
    it(`should give the pinned figures: ${run.args.filter((a) => !a.endsWith('.jsonl')).join(' ')}`, async () => {
      // Arrange
      const pinned = JSON.parse(fs.readFileSync(path.join(PINNED_DIR, run.name), 'utf8')) as unknown;

      // Act
      const json = await runPinned(run.args);

      // Assert
      expect(json).toEqual(pinned);
    }, 600_000);
  }
});
