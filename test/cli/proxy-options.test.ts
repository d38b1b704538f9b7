import { describe, expect, it } from 'vitest';
import { bannerLines, proxyConfigFrom, type ProxyArgs } from '../../src/cli/proxy-options.js';
import { wrapLines } from '../../src/cli/wrap-words.js';

const ARGS: ProxyArgs = { state: undefined, upstream: 'http://127.0.0.1:9', port: 0 };
const DIRS = { elidedDir: '/s/elided', spansDir: '/s/spans' };

describe('proxyConfigFrom', () => {
  it('should default to rescue mode at 55% with the deeper cut, without a gate or a horizon', () => {
    const { engine } = proxyConfigFrom(ARGS, {});

    expect(engine).toMatchObject({ mode: 'rescue', rescue: { gate: false, labels: 'local' }, latch: { thresholds: { threshold: 0.55 } } });
    expect(engine.latch.horizon).toBeUndefined();
  });

  it('should take --mode shed, --horizon and --gate', () => {
    expect(proxyConfigFrom({ ...ARGS, mode: 'shed', horizon: 40 }, {}).engine).toMatchObject({ mode: 'shed', latch: { horizon: 40 } });
    expect(proxyConfigFrom({ ...ARGS, gate: true, horizon: 0 }, {}).engine).toMatchObject({ mode: 'rescue', rescue: { gate: true }, latch: { horizon: 0 } });
  });

  it('should take --latch-at prompt, latch anywhere by default, and refuse anything else', () => {
    expect(proxyConfigFrom({ ...ARGS, latchAt: 'prompt' }, {}).engine.latch.latchAt).toBe('prompt');
    expect(proxyConfigFrom(ARGS, {}).engine.latch.latchAt).toBe('anywhere');
    expect(() => proxyConfigFrom({ ...ARGS, latchAt: 'later' }, {})).toThrow('--latch-at takes prompt or anywhere, not "later"');
  });

  it('should take --cold-rescue-pct as the cold threshold, none by default, and refuse one out of range', () => {
    expect(proxyConfigFrom({ ...ARGS, coldRescuePct: 40 }, {}).engine.latch.thresholds.coldThreshold).toBe(0.4);
    expect(proxyConfigFrom(ARGS, {}).engine.latch.thresholds.coldThreshold).toBeUndefined();
    expect(() => proxyConfigFrom({ ...ARGS, coldRescuePct: 0 }, {})).toThrow('--cold-rescue-pct takes a percentage above 0 and at most 100 (e.g. 70), not 0');
  });

  it('should refuse an unknown mode and a horizon that is no whole number, in one line', () => {
    expect(() => proxyConfigFrom({ ...ARGS, mode: 'trim' }, {})).toThrow('--mode takes rescue or shed, not "trim"');
    expect(() => proxyConfigFrom({ ...ARGS, horizon: -1 }, {})).toThrow('--horizon takes a whole number of turns >= 0, not -1');
    expect(() => proxyConfigFrom({ ...ARGS, horizon: 2.5 }, {})).toThrow('--horizon takes a whole number of turns >= 0, not 2.5');
  });

  it('should refuse a port that is no port, saying what it was given', () => {
    expect(() => proxyConfigFrom({ ...ARGS, port: 'http' }, {})).toThrow('--port takes a port from 0 to 65535 (0: any free one), not "http"');
    expect(() => proxyConfigFrom({ ...ARGS, port: 70_000 }, {})).toThrow('--port takes a port from 0 to 65535 (0: any free one), not 70000');
  });

  it("should take CLAUDE_CODE_AUTO_COMPACT_WINDOW from the environment as the window's ceiling", () => {
    expect(proxyConfigFrom(ARGS, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '400000' }).engine.window).toEqual({ autoCompact: 400_000 });
    expect(proxyConfigFrom({ ...ARGS, window: 100_000 }, {}).engine.window).toEqual({ given: 100_000 });
  });
});

describe('bannerLines', () => {
  const banner = (extra: Partial<ProxyArgs> = {}): string[] => bannerLines(proxyConfigFrom({ ...ARGS, ...extra }, {}), 'http://127.0.0.1:1', DIRS);

  it('should say what each mode changes and where the originals are kept', () => {
    expect(banner()).toEqual([
      'ctxshed: rescue on at http://127.0.0.1:1 -> http://127.0.0.1:9',
      "ctxshed: epochs latch at 55% of the model's window or, on a window over 200,000, at 120,000 tokens; old tool results over 1024 bytes, old tool inputs over 256 and old assistant texts over 256 bytes become stubs, originals kept in /s/elided",
    ]);
    expect(banner({ gate: true })[1]).toContain('at 120,000 tokens when the cache re-write pays back; ');
    expect(banner({ deep: 'none' })[1]).toContain('; old tool results over 1024 bytes become stubs, ');
    expect(banner({ mode: 'shed' })).toEqual([
      'ctxshed: shed on at http://127.0.0.1:1 -> http://127.0.0.1:9',
      "ctxshed: epochs latch at 40% of the model's window or, on a window over 200,000, at 120,000 tokens when the cache re-write pays back; a span of old messages becomes one stub, originals kept in /s/spans",
    ]);
    expect(banner({ labels: 'model' })[2]).toBe(
      "ctxshed: --labels model: at each latch, redacted heads of those results go to the upstream's model to be labelled",
    );
  });

  it('should fit an 80-column terminal once wrapped, each line whole at a word, the path on a line of its own when it must', () => {
    const elidedDir = `/home/someone/${'deep/'.repeat(12)}elided`;
    const lines = wrapLines(bannerLines(proxyConfigFrom({ ...ARGS, labels: 'model' }, {}), 'http://127.0.0.1:41234', { ...DIRS, elidedDir })).split('\n');

    for (const line of lines) expect(line.length <= 80 || line.trim() === elidedDir).toBe(true);
    expect(lines.map((l) => l.trim()).join(' ')).toContain(`originals kept in ${elidedDir}`);
    expect(lines.filter((l) => l.startsWith('ctxshed: '))).toHaveLength(3);
  });
});

describe('--rescue-tokens', () => {
  it('should reach the engine settings, and be refused unless a whole number', () => {
    expect(proxyConfigFrom({ ...ARGS, rescueTokens: 90_000 }, {}).engine.latch.thresholds.rescueTokens).toBe(90_000);
    expect(proxyConfigFrom(ARGS, {}).engine.latch.thresholds.rescueTokens).toBeUndefined();
    expect(() => proxyConfigFrom({ ...ARGS, rescueTokens: -1 }, {})).toThrow('--rescue-tokens takes a whole number of tokens >= 0, not -1');
    expect(() => proxyConfigFrom({ ...ARGS, rescueTokens: 1.5 }, {})).toThrow('--rescue-tokens takes a whole number of tokens >= 0, not 1.5');
  });

  it('should be in the banner where it is in force', () => {
    const at = (extra: Partial<ProxyArgs>): string => bannerLines(proxyConfigFrom({ ...ARGS, ...extra }, {}), 'http://127.0.0.1:1', DIRS)[1]!;

    expect(at({ window: 1_000_000 })).toContain('epochs latch at 55% of a 1,000,000-token window or at 120,000 tokens, whichever comes first; ');
    expect(at({ window: 200_000 })).toContain('epochs latch at 55% of a 200,000-token window; ');
    expect(at({ rescueTokens: 90_000 })).toContain(' or at 90,000 tokens, whichever comes first; ');
    expect(at({ rescueTokens: 0 })).toContain("of the model's window; ");
  });
});
