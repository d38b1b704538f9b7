import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withConversationLock } from '../../src/state/conversation-lock.js';
import { LOCKS_DIR_NAME, type StateDir } from '../../src/state/layout.js';
import { expireDeadOwner, ownerFileOf } from '../../src/state/lock-owner.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir } from '../support/test-proxy.js';

const KEY = 'd'.repeat(64);

let state: StateDir;
let lockPath: string;

/** The pid of a process that ran and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

/** A lock as a proxy killed in the middle of a latch leaves it: the directory, fresh, and its owner file. */
async function leaveLock(owner: { pid: number; host: string }): Promise<void> {
  await fs.mkdir(lockPath, { recursive: true });
  await fs.writeFile(ownerFileOf(lockPath), JSON.stringify(owner));
}

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-lock-owner-'));
  lockPath = path.join(state.root, LOCKS_DIR_NAME, KEY);
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true });
});

describe('a conversation lock a dead process left', () => {
  it('should be dated back when its owner is a process of this host that is gone', async () => {
    await leaveLock({ pid: deadPid(), host: os.hostname() });

    expect(await expireDeadOwner(lockPath)).toBe(true);
    expect((await fs.stat(lockPath)).mtimeMs).toBe(0);
  });

  it('should be left alone when its owner runs, is on another host, or is not known', async () => {
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      for (const owner of [
        { pid: running.pid!, host: os.hostname() },
        { pid: deadPid(), host: `not-${os.hostname()}` },
      ]) {
        await leaveLock(owner);
        expect(await expireDeadOwner(lockPath)).toBe(false);
      }
      await fs.writeFile(ownerFileOf(lockPath), '{"pid":');
      expect(await expireDeadOwner(lockPath)).toBe(false);
      await fs.rm(ownerFileOf(lockPath));
      expect(await expireDeadOwner(lockPath)).toBe(false);
      expect((await fs.stat(lockPath)).mtimeMs).toBeGreaterThan(0);
    } finally {
      running.kill('SIGKILL');
    }
  });

  it('should be taken over by the next latch, which says it holds it and takes that away after', async () => {
    await leaveLock({ pid: deadPid(), host: os.hostname() });

    // Without the takeover the lock is had only once stale, 10 s on.
    const during = await withConversationLock(state, KEY, async () => JSON.parse(await fs.readFile(ownerFileOf(lockPath), 'utf8')) as unknown);

    expect(during).toEqual({ pid: process.pid, host: os.hostname() });
    await expect(fs.stat(ownerFileOf(lockPath))).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(lockPath)).rejects.toThrow(/ENOENT/);
  });
});
