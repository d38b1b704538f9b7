import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Kept under test/ so the top level stays as the README describes it.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts', 'properties/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    setupFiles: ['test/support/fast-check-setup.ts'],
    // One temporary directory for the run, removed at its end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
