import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/store/slots.js';

describe('Slots', () => {
  it('should run at most its size at once, and the rest in the order they came', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 5 }, () => {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    const runs = gates.map((gate, i) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await gate.promise;
        running--;
      }),
    );
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(slots.queued).toBe(3);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('should free its slot when the work throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });

  it('should refuse a size below one', () => {
    expect(() => new Slots(0)).toThrow(RangeError);
  });
});
