import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The test files that run the built ctxshed as a child process (runCli, runCtxshed, startServe or
 * CLI_PATH, from test/cli/cli-run.ts or test/support/cli-process.ts): end-to-end tests of the
 * executable, about half of the quick run's time before they were left out of it (each process
 * spends about half a CPU-second starting Node and loading the command; README "Set up").
 */
export function filesRunningTheCli(root = ROOT): string[] {
  const uses = /\bimport\s*\{[^}]*\b(?:runCli|runCtxshed|startServe|CLI_PATH)\b[^}]*\}\s*from\s*'[^']*\b(?:cli-run|cli-process)\.js'/;
  return ['test', 'properties'].flatMap((folder) =>
    (fs.readdirSync(path.join(root, folder), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.test.ts') && !file.split(path.sep).includes('node_modules'))
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => uses.test(fs.readFileSync(path.join(root, file), 'utf8'))),
  );
}

// `npm run test:quick`: the unit and property tests, for the edit-test loop. Left out, for `npm test`
// (the whole suite CI runs): the end-to-end tests (test/e2e, and every test that runs the built
// ctxshed as a process), the real clients (test/real-client), the reliability runs
// (test/reliability: real serve processes, fuzzing, load), and any test whose name mentions
// Chromium (replay's page check in headless Chromium).
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/e2e/**', 'test/real-client/**', 'test/reliability/**', ...filesRunningTheCli()],
      testNamePattern: /^(?!.*\bChromium\b)/,
    },
  }),
);
