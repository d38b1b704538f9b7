import { describe, expect, it } from 'vitest';
import { runCli, STATE_EXAMPLE } from './cli-run.js';

// Every command's --json names its state directory by the one key `state` (demo: test/demo).
describe('the state directory in --json', () => {
  it('should be `state` in ls, show, status, stats and verify, never `dir` or `stateDir`', async () => {
    const commands = [['ls'], ['show', 'cbf84ec36c85'], ['status'], ['stats'], ['verify']];
    for (const command of commands) {
      const result = await runCli([...command, '--state', STATE_EXAMPLE, '--json']);

      const report = JSON.parse(result.stdout) as Record<string, unknown>;
      expect({ command, state: report['state'], dir: report['dir'], stateDir: report['stateDir'] }).toEqual({
        command,
        state: STATE_EXAMPLE,
        dir: undefined,
        stateDir: undefined,
      });
    }
  });
});
