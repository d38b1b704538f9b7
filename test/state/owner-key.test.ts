import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureOwnerKey, isOwnerKey, ownerKeyPath, readOwnerKey } from '../../src/state/owner-key.js';
import { verifyState } from '../../src/state/verify-state.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir } from '../support/test-proxy.js';

describe('ensureOwnerKey', () => {
  it('should make a key of 64 hex digits in a 0600 file, whatever the umask, and keep it', async () => {
    const { root } = await openStateDir(await tempStateDir());
    const before = process.umask(0);
    let key: string;
    try {
      key = await ensureOwnerKey(root);
    } finally {
      process.umask(before);
    }

    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(ownerKeyPath(root)).mode & 0o777).toBe(0o600);
    expect(await ensureOwnerKey(root)).toBe(key);
    expect(await readOwnerKey(root)).toBe(key);
  });

  it('should agree on one key when many processes make it at once, and leave no staged file', async () => {
    const { root } = await openStateDir(await tempStateDir());

    const keys = await Promise.all(Array.from({ length: 8 }, () => ensureOwnerKey(root)));

    expect(new Set(keys).size).toBe(1);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('owner.key'))).toEqual(['owner.key']);
  });

  it('should be a file verify accepts, and a half-made one a note, not a problem', async () => {
    const { root } = await openStateDir(await tempStateDir());
    await ensureOwnerKey(root);
    fs.writeFileSync(path.join(root, 'owner.key.123.abcd'), 'x', { mode: 0o600 });

    const report = await verifyState(root);

    expect(report.problems).toEqual([]);
    expect(report.notes.join('\n')).toContain('owner.key.123.abcd: an owner key left half made');
  });

  it('should read no key from a file that does not hold one, and verify should say so', async () => {
    const { root } = await openStateDir(await tempStateDir());
    fs.writeFileSync(ownerKeyPath(root), 'not a key\n', { mode: 0o600 });

    expect(await readOwnerKey(root)).toBeUndefined();
    expect((await verifyState(root)).problems).toEqual(['owner.key: does not hold a key (64 hex digits)']);
  });
});

describe('isOwnerKey', () => {
  it('should take the key, with or without its newline, and nothing else', () => {
    const key = 'a'.repeat(64);
    expect(isOwnerKey(key, key)).toBe(true);
    expect(isOwnerKey(key, `${key}\n`)).toBe(true);
    expect(isOwnerKey(key, 'b'.repeat(64))).toBe(false);
    expect(isOwnerKey(key, key.slice(1))).toBe(false);
    expect(isOwnerKey(key, '')).toBe(false);
  });
});
