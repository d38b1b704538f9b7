import { describe, expect, it } from 'vitest';
import { DEFAULT_LATCH_AT } from '../../src/core/thinking/turn-place.js';
import { DEFAULT_SHED_POLICY, fixedRecentBudget } from '../../src/core/shed/shed-types.js';
import { DEFAULT_CLASSIFIER_TIMEOUT_MS, DEFAULT_ENGINE_SETTINGS, engineSettingsOf } from '../../src/rescue/engine-settings.js';
import { modeDefaultsOf } from '../../src/rescue/mode-defaults.js';

describe('engineSettingsOf', () => {
  it("should take every lever left out from its mode's row, and the engine's defaults for the rest", () => {
    for (const mode of ['rescue', 'shed'] as const) {
      const row = modeDefaultsOf(mode);

      expect(engineSettingsOf({ mode })).toEqual({
        mode,
        latch: { thresholds: { threshold: row.threshold }, minGainFraction: row.minGainFraction, latchAt: DEFAULT_LATCH_AT },
        rescue: {
          policy: { keepRecent: row.keepRecent, minBytes: row.minBytes, ...(row.deep === undefined ? {} : { deep: row.deep }) },
          gate: row.gate,
          labels: 'local',
          classifierTimeoutMs: DEFAULT_CLASSIFIER_TIMEOUT_MS,
        },
        shed: { policy: row.shedPolicy },
        window: {},
        stubs: { gateway: false, restoreTool: false },
      });
    }
    expect(DEFAULT_ENGINE_SETTINGS).toEqual(engineSettingsOf({ mode: 'rescue' }));
  });

  it('should put each lever given in its group', () => {
    const settings = engineSettingsOf({
      threshold: 0.4,
      rescueTokens: 90_000,
      coldThreshold: 0.3,
      minGainFraction: 0,
      keepRecent: 1,
      minBytes: 2,
      recentFraction: 0.1,
      gate: true,
      horizon: 5,
      latchAt: 'prompt',
      labels: 'model',
      classifierTimeoutMs: 5,
      window: 60_000,
      autoCompactWindow: 50_000,
      gatewayStubs: true,
    });

    expect(settings).toEqual({
      mode: 'rescue',
      latch: { thresholds: { threshold: 0.4, rescueTokens: 90_000, coldThreshold: 0.3 }, minGainFraction: 0, horizon: 5, latchAt: 'prompt' },
      rescue: { policy: { keepRecent: 1, minBytes: 2, deep: modeDefaultsOf('rescue').deep }, gate: true, labels: 'model', classifierTimeoutMs: 5 },
      shed: { policy: { ...DEFAULT_SHED_POLICY, recentFraction: 0.1 } },
      window: { given: 60_000, autoCompact: 50_000 },
      stubs: { gateway: true, restoreTool: false },
    });
  });

  it('should take the deeper cut from the row, or none when told none', () => {
    expect(engineSettingsOf({ mode: 'rescue' }).rescue.policy.deep).toEqual(modeDefaultsOf('rescue').deep);
    expect(engineSettingsOf({ mode: 'rescue', deep: 'none' }).rescue.policy.deep).toBeUndefined();
  });

  it('should take a whole shed policy, and the recent budget given over it', () => {
    expect(engineSettingsOf({ shedPolicy: fixedRecentBudget(0) }).shed.policy).toEqual(fixedRecentBudget(0));
    expect(engineSettingsOf({ shedPolicy: fixedRecentBudget(0), recentCeilingTokens: 7 }).shed.policy).toEqual({
      ...fixedRecentBudget(0),
      recentCeilingTokens: 7,
    });
  });
});
