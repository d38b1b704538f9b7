import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/proxy/body-budget.js';
import { BodyPace } from '../../src/proxy/body-pace.js';

describe('BodyPace', () => {
  const RATE = { minBytesPerSecond: 1000, rateWindowMs: 1000 };

  it('should end a body that brings fewer bytes than the rate asks in a whole window (a drip-feed)', () => {
    const pace = new BodyPace(RATE, 0);
    expect(pace.saw(5000, 10)).toBeUndefined();
    expect(pace.check(999)).toBeUndefined();
    expect(pace.check(1000)).toBeUndefined(); // the first window carried 5000
    expect(pace.saw(1, 1500)).toBeUndefined();
    expect(pace.check(2000)).toBe('too_slow'); // the second carried 1
  });

  it('should forgive a stall inside a window that still brings its bytes', () => {
    const pace = new BodyPace(RATE, 0);
    pace.saw(200, 10);
    pace.saw(900, 950); // 1100 in the first window, most of it late
    expect(pace.check(1000)).toBeUndefined();
    expect(pace.saw(1000, 1999)).toBeUndefined();
    expect(pace.check(2000)).toBeUndefined();
  });

  it('should name a short window found when the next bytes come after it', () => {
    const pace = new BodyPace(RATE, 0);
    pace.saw(10, 10);
    expect(pace.saw(5000, 1200)).toBe('too_slow');
  });

  it('should end a body past its deadline whatever its rate, and one silent past the idle timeout', () => {
    const deadline = new BodyPace({ ...RATE, deadlineMs: 3000 }, 0);
    for (let t = 0; t < 3000; t += 100) expect(deadline.saw(500, t)).toBeUndefined();
    expect(deadline.check(3000)).toBe('deadline');
    const idle = new BodyPace({ idleTimeoutMs: 500 }, 0);
    idle.saw(1, 100);
    expect(idle.check(599)).toBeUndefined();
    expect(idle.check(600)).toBe('timed_out');
  });

  it('should say when to look again: the nearest limit, and never with every limit off', () => {
    const pace = new BodyPace({ idleTimeoutMs: 500, deadlineMs: 3000, ...RATE }, 0);
    expect(pace.nextCheckIn(0)).toBe(500);
    pace.saw(10_000, 400);
    expect(pace.nextCheckIn(400)).toBe(500); // idle at 900, window at 1000
    expect(new BodyPace({}, 0).nextCheckIn(0)).toBeUndefined();
  });
});

describe('BodyBudget', () => {
  const MiB = 1024 * 1024;

  it('should keep a reserve that no body past its share may eat, so five big bodies leave room for an agent', () => {
    const budget = new BodyBudget(128 * MiB, 8 * MiB);
    const held = [0, 0, 0, 0, 0];
    // Five uploads of 27 MB each, a MiB at a time, as long as the budget lets them.
    for (let step = 0; step < 27; step++) {
      held.forEach((h, i) => {
        if (h >= 0 && budget.take(MiB, h)) held[i] = h + MiB;
        else held[i] = -1;
      });
    }

    expect(budget.reserve).toBe(32 * MiB);
    expect(budget.held).toBeLessThanOrEqual(96 * MiB);
    expect(budget.take(500_000, 0)).toBe(true); // an agent's request, within its share
  });

  it('should let bodies within their share use the whole budget, and no body past the cap', () => {
    const budget = new BodyBudget(10_000, 4_000);
    expect(budget.reserve).toBe(5_000);
    expect(budget.take(4_000, 0)).toBe(true);
    expect(budget.take(4_000, 0)).toBe(true);
    expect(budget.take(1_500, 0)).toBe(true);
    expect(budget.take(1_000, 0)).toBe(false); // past the cap
    expect(budget.take(100, 4_000)).toBe(false); // past its share, into the reserve
    budget.give(9_500);
    expect(budget.take(4_500, 0)).toBe(true); // past its share, the reserve untouched
    expect(budget.take(1_000, 4_500)).toBe(false); // 5,500 would leave less than the reserve
  });

  it('should behave as one cap when no share is given', () => {
    const budget = new BodyBudget(10_000);
    expect(budget.reserve).toBe(0);
    expect(budget.take(10_000, 0)).toBe(true);
    expect(budget.take(1, 10_000)).toBe(false);
  });
});
