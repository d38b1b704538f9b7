import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:quick`: the unit and property tests, for the edit-test loop. Left out, for `npm test`
// (the whole suite CI runs): the end-to-end tests (test/e2e), the real clients (test/real-client),
// the reliability runs (test/reliability: real serve processes, fuzzing, load), and any test whose
// name mentions Chromium (replay's page check in headless Chromium).
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/e2e/**', 'test/real-client/**', 'test/reliability/**'],
      testNamePattern: /^(?!.*\bChromium\b)/,
    },
  }),
);
