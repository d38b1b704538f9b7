import { describe, expect, it } from 'vitest';
import { runCli } from './cli-run.js';

// No database is needed: each of these is refused before one is reached.
describe('--store and migrate', () => {
  it('should refuse migrate without --store, as a usage error', async () => {
    const result = await runCli(['migrate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/migrate needs --store postgres:\/\//);
  });

  it('should refuse a --store that is not a postgres URL, without echoing a password', async () => {
    for (const command of [['migrate'], ['verify'], ['serve']]) {
      const result = await runCli([...command, '--store', 'mysql://me:t0psecret@db/x']);
      expect(result.code, command.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--store takes a postgres:\/\/ or postgresql:\/\/ URL/);
      expect(result.stderr).not.toContain('t0psecret');
    }
  });

  it('should say a database it cannot reach is unavailable, naming it without its password', async () => {
    const result = await runCli(['verify', '--store', 'postgres://me:t0psecret@127.0.0.1:1/x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the store postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/x is unavailable/);
    // Why, in words first, the client's own text after them.
    expect(result.stderr).toMatch(/is unavailable: nothing accepts connections at its address \(.*ECONNREFUSED.*\)/);
    expect(result.stderr).not.toContain('t0psecret');
  });

  it('should refuse rescue --store, pointing to serve', async () => {
    const result = await runCli(['rescue', '--store', 'postgres://me:t0psecret@db/x', '--', 'true']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ctxshed serve --store/);
    expect(result.stderr).not.toContain('t0psecret');
  });
});
