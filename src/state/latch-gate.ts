/**
 * Within one process, latches of different conversations run at once (each under its own
 * conversation's lock, conversation-lock.ts), and removing a failed latch's orphans waits for
 * every latch in flight and holds new ones off: a latch in flight may have found an orphan's bytes
 * in place and be about to name them in its record (reclaim-orphans.ts).
 */

let active = 0;
let exclusive: Promise<void> | undefined;
let idle: Array<() => void> = [];

/** Runs one latch's writes; many may run at once, never beside `exclusively`. */
export async function sharedLatch<T>(latch: () => Promise<T>): Promise<T> {
  while (exclusive !== undefined) await exclusive;
  active += 1;
  try {
    return await latch();
  } finally {
    active -= 1;
    if (active === 0) {
      const waiting = idle;
      idle = [];
      for (const wake of waiting) wake();
    }
  }
}

/** Runs `work` once no latch of this process is in flight, holding new ones until it is done. Never call it from inside `sharedLatch`. */
export async function exclusively(work: () => Promise<void>): Promise<void> {
  while (exclusive !== undefined) await exclusive;
  let done: () => void = () => undefined;
  exclusive = new Promise<void>((resolve) => (done = resolve));
  try {
    while (active > 0) await new Promise<void>((resolve) => idle.push(resolve));
    await work();
  } finally {
    exclusive = undefined;
    done();
  }
}
