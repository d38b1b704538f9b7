import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Kept under test/ so the top level stays as the README describes it.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts'],
    // test/clients/node_modules holds the real clients the suites drive: none of its files is a test of ours.
    exclude: ['dist/**', '**/node_modules/**'],
    setupFiles: ['test/support/fast-check-setup.ts'],
    // One temporary directory for the run, removed at its end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    // Vitest's default is one worker fewer than the CPUs: one worker on a 2-CPU CI machine, where most
    // test time is spent waiting on spawned clients and sockets. Two there, the default elsewhere.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
