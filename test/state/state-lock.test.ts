import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { withStateLock } from '../../src/state/state-lock.js';
import { useStateDir } from './fixtures/state-fixtures.js';

const dirs = useStateDir();

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

describe('withStateLock', () => {
  it('should hold <state>/.lock during the critical section and remove it after', async () => {
    const during = await withStateLock(dirs.state, async () => exists(dirs.state.lockPath));
    expect(during).toBe(true);
    expect(await exists(dirs.state.lockPath)).toBe(false);
  });

  it('should run the critical sections of one process one at a time', async () => {
    let active = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        withStateLock(dirs.state, async () => {
          active += 1;
          most = Math.max(most, active);
          await sleep(5);
          order.push(i);
          active -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('should release the lock when the critical section throws, and keep working', async () => {
    await expect(withStateLock(dirs.state, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await exists(dirs.state.lockPath)).toBe(false);
    expect(await withStateLock(dirs.state, async () => 'next')).toBe('next');
  });

  it('should wait for a lock held by someone else', async () => {
    await fs.mkdir(dirs.state.lockPath);
    const started = Date.now();
    setTimeout(() => void fs.rmdir(dirs.state.lockPath), 300);
    await withStateLock(dirs.state, async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('should take over a stale lock left by a killed process', async () => {
    await fs.mkdir(dirs.state.lockPath);
    const longAgo = new Date(Date.now() - 60_000);
    await fs.utimes(dirs.state.lockPath, longAgo, longAgo);
    const started = Date.now();
    expect(await withStateLock(dirs.state, async () => 'taken over')).toBe('taken over');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('should report a compromised lock from assertHeld instead of crashing the process', async () => {
    const result = withStateLock(dirs.state, async (lock) => {
      // Someone removes our lock: the next refresh (every 2 s) notices and calls onCompromised.
      await fs.rmdir(dirs.state.lockPath);
      await sleep(2_600);
      lock.assertHeld();
      return 'committed';
    });
    await expect(result).rejects.toMatchObject({ code: 'STATE_LOCK_COMPROMISED' });
    expect(await withStateLock(dirs.state, async () => 'usable again')).toBe('usable again');
  });
});
