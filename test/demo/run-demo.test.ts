import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { proxyConfigFrom } from '../../src/cli/proxy-options.js';
import type { DemoEvent } from '../../src/demo/demo-report.js';
import { DEFAULT_DEMO_WINDOW, runDemo } from '../../src/demo/run-demo.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { tempStateDir } from '../support/test-proxy.js';

/** The configuration `ctxshed demo` builds with its default flags. */
function demoConfig(overrides: { rescuePct?: number; window?: number; mode?: string } = {}): ReturnType<typeof proxyConfigFrom> {
  return proxyConfigFrom(
    {
      rescuePct: overrides.rescuePct ?? 70,
      keepRecent: 6,
      minBytes: 1024,
      window: overrides.window ?? DEFAULT_DEMO_WINDOW,
      state: undefined,
      upstream: undefined,
      port: 0,
      mode: overrides.mode ?? 'rescue',
    },
    {},
  );
}

describe('runDemo', () => {
  it('should latch an epoch, keep bytes out of the window and leave a state directory verify accepts', async () => {
    const dir = await tempStateDir('ctxshed-demo-test-');

    const report = await runDemo({ turns: 24, config: demoConfig(), stateDir: dir });

    expect(report.state).toBe(dir);
    expect(report.turns).toHaveLength(24);
    expect(report.epochs.length).toBeGreaterThanOrEqual(1);
    expect(report.summary.bytesSaved).toBeGreaterThan(0);
    expect(report.turns.at(-1)!.rescued).toBeGreaterThan(0);
    expect(report.verify.ok).toBe(true);
    expect(report.verify.problems).toEqual([]);
    expect(report.commands).toEqual([`ctxshed verify --state ${dir}`, `ctxshed ls --state ${dir}`, `ctxshed show ${report.conversationKey} --state ${dir}`]);
  });

  it('should forward every request unchanged before the first epoch and latch only above the threshold', async () => {
    const report = await runDemo({ turns: 24, config: demoConfig(), stateDir: await tempStateDir('ctxshed-demo-test-') });

    const first = report.epochs[0]!;
    const before = report.turns.slice(0, first.turn - 1);
    expect(before.every((t) => t.bytesIn === t.bytesOut && t.rescued === 0)).toBe(true);
    expect(first.fullness).toBeGreaterThanOrEqual(0.7);
    expect(report.turns[first.turn - 2]!.fullness).toBe(first.fullness);
    expect(first.toolResults).toBe(report.turns[first.turn - 1]!.rescued);
  });

  it('should read a stubbed file back through the client and find its sha256 intact', async () => {
    const report = await runDemo({ turns: 24, config: demoConfig(), stateDir: await tempStateDir('ctxshed-demo-test-') });

    const readBack = report.readBack!;
    expect(readBack.askedAtTurn).toBe(report.epochs[0]!.turn);
    expect(readBack.answeredAtTurn).toBe(readBack.askedAtTurn + 1);
    expect(readBack.matched).toBe(true);
    expect(readBack.path).toBe(path.join(report.state, 'elided', `${readBack.expectedSha256}.txt`));
    expect(sha256Hex(await fs.readFile(readBack.path))).toBe(readBack.expectedSha256);
  });

  it('should report turns, epochs and the read-back as they happen, in order', async () => {
    const events: DemoEvent[] = [];

    await runDemo({ turns: 24, config: demoConfig(), stateDir: await tempStateDir('ctxshed-demo-test-'), onEvent: (e) => events.push(e) });

    const kinds = events.map((e) => e.kind);
    expect(kinds[0]).toBe('start');
    expect(kinds.filter((k) => k === 'turn')).toHaveLength(24);
    // An epoch comes right after the line of the turn whose request latched it, the turn it names.
    const epochAt = kinds.indexOf('epoch');
    const [before, epoch] = [events[epochAt - 1], events[epochAt]];
    expect(before?.kind === 'turn' && epoch?.kind === 'epoch' && before.turn.turn === epoch.epoch.turn).toBe(true);
    expect(kinds.filter((k) => k === 'read-back')).toHaveLength(2);
  });

  it('should start a new conversation on each run in a shared state directory', async () => {
    const dir = await tempStateDir('ctxshed-demo-test-');

    const first = await runDemo({ turns: 3, config: demoConfig(), stateDir: dir });
    const second = await runDemo({ turns: 3, config: demoConfig(), stateDir: dir });

    expect(second.conversationKey).not.toBe(first.conversationKey);
    expect(second.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
  });

  it('should latch nothing when the session never reaches the threshold', async () => {
    const report = await runDemo({ turns: 6, config: demoConfig({ window: 1_000_000 }), stateDir: await tempStateDir('ctxshed-demo-test-') });

    expect(report.epochs).toEqual([]);
    expect(report.readBack).toBeUndefined();
    expect(report.summary.bytesSaved).toBe(0);
    expect(report.verify.ok).toBe(true);
  });

  it('should shed spans of whole messages in shed mode, each epoch with its span and files verify accepts', async () => {
    const dir = await tempStateDir('ctxshed-demo-test-');

    const report = await runDemo({ turns: 24, config: demoConfig({ mode: 'shed' }), stateDir: dir });

    expect(report.mode).toBe('shed');
    expect(report.epochs.length).toBeGreaterThanOrEqual(1);
    for (const epoch of report.epochs) {
      const span = epoch.span!;
      expect(span.messages).toBe(span.last - span.first + 1);
      expect(epoch.bytes).toBe(span.bytes);
      expect(span.path).toBe(path.join(dir, 'spans', `${span.sha256}.md`));
      expect(sha256Hex(await fs.readFile(path.join(dir, 'spans', `${span.sha256}.json`)))).toBe(span.sha256);
    }
    expect(report.epochs[1]?.span?.first ?? Infinity).toBeGreaterThan(report.epochs[0]!.span!.last);
    expect(report.summary.bytesSaved).toBeGreaterThan(0);
    expect(report.readBack).toBeUndefined();
    expect(report.verify.ok).toBe(true);
    expect(report.verify.checked.spans).toBe(report.epochs.length);
    expect(report.verify.checked.blocks).toBe(0);
  });
});
