import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, STATE_EXAMPLE } from './cli-run.js';

const SHA = '8370b47dccff78983af2d4aa820dcb0de62f3507fe1f7782de755774588d98a9';
let tmp: string;
let state: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-seal-cli-'));
  state = path.join(tmp, 'state');
  await fs.cp(STATE_EXAMPLE, state, { recursive: true });
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const exists = (file: string): Promise<boolean> =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );

describe('ctxshed seal and unseal', () => {
  it('should move the text to sealed/ and back, byte for byte, with verify passing at each step', async () => {
    const original = await fs.readFile(path.join(state, 'elided', `${SHA}.txt`));

    const sealed = await runCli(['seal', '8370B47DCCFF', '--reason', 'holds a token', '--state', state]);
    expect(sealed).toMatchObject({ code: 0, stderr: '' });
    expect(sealed.stdout).toMatch(new RegExp(`^sealed: ${SHA} \\(1512 bytes\\) is in .*/sealed/ now; restore refuses it`));
    expect(await exists(path.join(state, 'elided', `${SHA}.txt`))).toBe(false);
    const record = JSON.parse(await fs.readFile(path.join(state, 'sealed', `${SHA}.seal.json`), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ sha256: SHA, bytes: 1512, reason: 'holds a token' });
    expect(await runCli(['verify', '--state', state])).toMatchObject({ code: 0 });

    const shown = await runCli(['show', SHA.slice(0, 12), '--state', state]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toBe(
      `ctxshed: show: ${SHA} is sealed (ctxshed seal): its text is kept in sealed/ and not shown; ctxshed unseal ${SHA.slice(0, 12)} gives it back\n`,
    );

    const again = await runCli(['seal', SHA.slice(0, 12), '--state', state]);
    expect(again.stdout).toMatch(/^already sealed since /);

    const unsealed = await runCli(['unseal', SHA.slice(0, 12), '--state', state]);
    expect(unsealed).toMatchObject({ code: 0, stderr: '' });
    expect(unsealed.stdout).toMatch(/^unsealed: /);
    expect(await fs.readFile(path.join(state, 'elided', `${SHA}.txt`))).toEqual(original);
    expect(await exists(path.join(state, 'sealed', `${SHA}.seal.json`))).toBe(false);
    expect(await runCli(['verify', '--state', state])).toMatchObject({ code: 0 });
    expect((await runCli(['unseal', SHA, '--state', state])).stdout).toMatch(/^not sealed: /);
  });

  it('should refuse a handle that is not hex or too short (exit 2) and one that names nothing (exit 1)', async () => {
    expect(await runCli(['seal', '../elided', '--state', state])).toMatchObject({
      code: 2,
      stderr: 'ctxshed: seal: a handle is hex digits only (a sha256, or its first 12 or more digits)\n',
    });
    expect(await runCli(['seal', '8370b47d', '--state', state])).toMatchObject({
      code: 2,
      stderr: 'ctxshed: seal: a handle needs at least 12 hex digits, not 8\n',
    });
    const none = await runCli(['unseal', 'ffffffffffff', '--state', state]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^ctxshed: unseal: no elided or sealed block in .* has a sha256 starting ffffffffffff\n$/);
  });

  it('should refuse a shed span: spans are not sealed, and nothing moves', async () => {
    const span = Buffer.from('{"role":"user","content":"shed me"}');
    const sha = createHash('sha256').update(span).digest('hex');
    // state.example, copied, has a spans/ of its own.
    await fs.mkdir(path.join(state, 'spans'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(state, 'spans', `${sha}.json`), span, { mode: 0o600 });
    const refused = await runCli(['seal', sha.slice(0, 12), '--state', state]);
    expect(refused).toMatchObject({
      code: 1,
      stderr: `ctxshed: seal: ${sha} is a shed span; ctxshed seals elided tool results only, not shed spans (docs/shed.md)\n`,
    });
    expect(await fs.readFile(path.join(state, 'spans', `${sha}.json`))).toEqual(span);
    expect(await exists(path.join(state, 'sealed', `${sha}.seal.json`))).toBe(false);
  });

  it('should refuse a state directory that does not exist, creating nothing', async () => {
    const missing = path.join(tmp, 'nope');
    expect((await runCli(['seal', SHA, '--state', missing])).code).toBe(1);
    expect(await exists(missing)).toBe(false);
  });

  it('should run its --help examples as shown, on $CTXSHED_STATE', async () => {
    const env = { ...process.env, CTXSHED_STATE: state };
    for (const command of ['seal', 'unseal']) {
      const help = await runCli([command, '--help']);
      const example = /\n {2}(ctxshed (?:un)?seal \S+(?: --reason \S+)?)/.exec(help.stdout)?.[1];
      expect(example, help.stdout).toBeDefined();
      const result = await runCli(example!.split(' ').slice(1), { env });
      expect({ example, code: result.code, stderr: result.stderr }).toEqual({ example, code: 0, stderr: '' });
    }
  });
});
