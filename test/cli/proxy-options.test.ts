import { describe, expect, it } from 'vitest';
import { bannerLine, proxyConfigFrom, type ProxyArgs } from '../../src/cli/proxy-options.js';

const ARGS: ProxyArgs = { rescuePct: 70, keepRecent: 6, minBytes: 1024, window: undefined, state: undefined, upstream: 'http://127.0.0.1:9', port: 0 };
const DIRS = { elidedDir: '/s/elided', spansDir: '/s/spans' };

describe('proxyConfigFrom', () => {
  it('should default to rescue mode without a gate or a horizon', () => {
    const { engine } = proxyConfigFrom(ARGS, {});

    expect(engine).toMatchObject({ mode: 'rescue', gate: false, threshold: 0.7 });
    expect(engine.horizon).toBeUndefined();
  });

  it('should take --mode shed, --horizon and --gate', () => {
    expect(proxyConfigFrom({ ...ARGS, mode: 'shed', horizon: 40 }, {}).engine).toMatchObject({ mode: 'shed', horizon: 40 });
    expect(proxyConfigFrom({ ...ARGS, gate: true, horizon: 0 }, {}).engine).toMatchObject({ mode: 'rescue', gate: true, horizon: 0 });
  });

  it('should take --latch-at prompt, latch anywhere by default, and refuse anything else', () => {
    expect(proxyConfigFrom({ ...ARGS, latchAt: 'prompt' }, {}).engine.latchAt).toBe('prompt');
    expect(proxyConfigFrom(ARGS, {}).engine.latchAt).toBeUndefined();
    expect(() => proxyConfigFrom({ ...ARGS, latchAt: 'later' }, {})).toThrow('--latch-at takes prompt or anywhere, not "later"');
  });

  it('should take --cold-rescue-pct as the cold threshold, none by default, and refuse one out of range', () => {
    expect(proxyConfigFrom({ ...ARGS, coldRescuePct: 40 }, {}).engine.coldThreshold).toBe(0.4);
    expect(proxyConfigFrom(ARGS, {}).engine.coldThreshold).toBeUndefined();
    expect(() => proxyConfigFrom({ ...ARGS, coldRescuePct: 0 }, {})).toThrow('--cold-rescue-pct takes a number above 0 and at most 100, not 0');
  });

  it('should refuse an unknown mode and a horizon that is no whole number, in one line', () => {
    expect(() => proxyConfigFrom({ ...ARGS, mode: 'trim' }, {})).toThrow('--mode takes rescue or shed, not "trim"');
    expect(() => proxyConfigFrom({ ...ARGS, horizon: -1 }, {})).toThrow('--horizon takes a whole number >= 0, not -1');
    expect(() => proxyConfigFrom({ ...ARGS, horizon: 2.5 }, {})).toThrow('--horizon takes a whole number >= 0, not 2.5');
  });
});

describe('bannerLine', () => {
  it('should say what each mode changes and where the originals are kept', () => {
    const rescue = bannerLine(proxyConfigFrom(ARGS, {}), 'http://127.0.0.1:1', DIRS);
    const gated = bannerLine(proxyConfigFrom({ ...ARGS, gate: true }, {}), 'http://127.0.0.1:1', DIRS);
    const shed = bannerLine(proxyConfigFrom({ ...ARGS, mode: 'shed' }, {}), 'http://127.0.0.1:1', DIRS);

    expect(rescue).toBe(
      "ctxshed: rescue on at http://127.0.0.1:1 -> http://127.0.0.1:9; epochs latch at 70% of the model's window (1M for Opus 5 and 5.5, or with the context-1m beta; else 200,000) or, on a window over 200,000, at 120,000 tokens; " +
        'this mode changes request bytes: old tool results over 1024 bytes become stubs, originals kept in /s/elided',
    );
    expect(gated).toContain('at 120,000 tokens when the cache re-write pays back; ');
    expect(shed).toBe(
      "ctxshed: shed on at http://127.0.0.1:1 -> http://127.0.0.1:9; epochs latch at 70% of the model's window (1M for Opus 5 and 5.5, or with the context-1m beta; else 200,000) or, on a window over 200,000, at 120,000 tokens when the cache re-write pays back; " +
        'this mode changes request bytes: a span of old messages becomes one stub, originals kept in /s/spans',
    );
  });
});

describe('--rescue-tokens', () => {
  it('should reach the engine settings, and be refused unless a whole number', () => {
    expect(proxyConfigFrom({ ...ARGS, rescueTokens: 90_000 }, {}).engine.rescueTokens).toBe(90_000);
    expect(proxyConfigFrom(ARGS, {}).engine.rescueTokens).toBeUndefined();
    expect(() => proxyConfigFrom({ ...ARGS, rescueTokens: -1 }, {})).toThrow('--rescue-tokens takes a whole number >= 0, not -1');
    expect(() => proxyConfigFrom({ ...ARGS, rescueTokens: 1.5 }, {})).toThrow('--rescue-tokens takes a whole number >= 0, not 1.5');
  });

  it('should be in the banner where it is in force', () => {
    const at = (extra: object): string => bannerLine(proxyConfigFrom({ ...ARGS, ...extra }, {}), 'http://127.0.0.1:1', DIRS);

    expect(at({ window: 1_000_000 })).toContain('epochs latch at 70% of a 1,000,000-token window or at 120,000 tokens, whichever comes first; ');
    expect(at({ window: 200_000 })).toContain('epochs latch at 70% of a 200,000-token window; ');
    expect(at({ rescueTokens: 90_000 })).toContain(' or at 90,000 tokens, whichever comes first; ');
    expect(at({ rescueTokens: 0 })).toContain('else 200,000); ');
  });
});
