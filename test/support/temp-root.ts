/**
 * Vitest's global setup: the whole run's temporary files go under one fresh directory, removed
 * when the run ends, so a test run leaves nothing behind in the system's temp directory. Workers
 * and the programs tests start inherit TMPDIR, which `os.tmpdir()` and `mkdtemp` read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Points TMPDIR at a fresh directory; returns the teardown that removes it. */
export default function setup(): () => void {
  const previous = process.env['TMPDIR'];
  const root = mkdtempSync(path.join(os.tmpdir(), 'ctxshed-vitest-'));
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
