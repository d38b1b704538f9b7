import { describe, expect, it } from 'vitest';
import { runCli, STATE_EXAMPLE } from './cli-run.js';

/** The commands in the `Examples:` section of a --help text. */
function examplesOf(help: string): string[] {
  const section = help.split('\nExamples:\n')[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('  ctxshed '))
    .map((line) => line.trim().split(/\s{2,}/)[0]!);
}

// Examples that need a client to run (rescue, serve) or a user's own files are left to their own tests.
const RUNNABLE = /^ctxshed (ls|show|status|stats)\b|^ctxshed replay --ttl test\//;

describe("the report commands' --help examples", () => {
  for (const command of ['', 'ls', 'show', 'status', 'stats', 'replay']) {
    it(`should run every report example of \`ctxshed ${command} --help\` from the repository's top`, async () => {
      const help = await runCli([...(command === '' ? [] : [command]), '--help']);
      const examples = examplesOf(help.stdout).filter((example) => RUNNABLE.test(example));
      expect(examples.length).toBeGreaterThan(0);

      for (const example of examples) {
        const args = example.split(' ').slice(1);
        // An example without --state reads $CTXSHED_STATE, as a user's would.
        const result = await runCli(args, {
          env: { ...process.env, CTXSHED_STATE: STATE_EXAMPLE },
          // A whole block printed: its last line says how many conversations it showed.
          stopWhen: args.includes('--follow') ? (stdout) => stdout.includes(' seen within ') : undefined,
        });

        expect({ example, code: result.code, stderr: result.stderr }).toEqual({ example, code: 0, stderr: '' });
        expect(result.stdout).not.toBe('');
      }
    });
  }
});
