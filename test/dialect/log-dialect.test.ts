/**
 * A dialect added from docs/adding-a-dialect.md alone: one file (log-dialect.ts) and one registry
 * line (`registerDialect`). Its requests go through the engine as any API's do: the same
 * transcript gives the same bytes, a grown one keeps its prefix, the stubs inflate back, and its
 * usage and errors are read and written in its own words.
 */
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectOf, dialectOfTarget, modelRouteOf, readsFullness, registerDialect } from '../../src/core/dialects/registry.js';
import type { Usage } from '../../src/core/usage.js';
import { errorShapeOf, shapedErrorBody } from '../../src/proxy/api-error.js';
import { createUsageTap } from '../../src/proxy/usage-tap.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings } from '../../src/rescue/index.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { filler, fromUtf8 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';
import { LOG_API } from './log-dialect.js';

const SETTINGS: EngineSettings = engineSettingsOf({ window: 10_000 });
const ENCODER = new TextEncoder();

/** A log body: the prompt, then one call and its output per item of `outputs`. */
function logBody(outputs: readonly string[]): Uint8Array {
  const turns: unknown[] = [{ role: 'user', text: 'Tour the project.' }];
  for (const [i, text] of outputs.entries()) turns.push({ role: 'assistant', text: `reading ${i}` }, { role: 'tool', id: `c${i}`, text });
  return ENCODER.encode(JSON.stringify({ model: 'log-1', turns }));
}

function usage(contextTokens: number): Usage {
  return { inputTokens: contextTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 5 };
}

const request = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/log', headers: { 'x-log-session': 's1' }, body });
const OUTPUTS = Array.from({ length: 10 }, (_, i) => filler(4000, i));

let unregister: () => void;
let state: StateDir;
let engine: EpochEngine;

beforeEach(async () => {
  unregister = registerDialect(LOG_API);
  state = await openStateDir(await tempStateDir('ctxshed-log-dialect-'));
  engine = new EpochEngine(state, SETTINGS, { now: () => new Date('2026-02-03T04:05:06.000Z') });
});

afterEach(async () => {
  await engine.settle();
  unregister();
  await fs.rm(state.root, { recursive: true, force: true, maxRetries: 5 });
});

describe('a test dialect in the registry', () => {
  it('should route its path, read fullness on it, and answer errors on it in its own shape', () => {
    const route = modelRouteOf('POST', '/v1/log?x=1');
    const body = JSON.parse(shapedErrorBody(errorShapeOf('/v1/log'), { anthropicType: 'a', openAiType: 'o', code: 'c', message: 'm' }).toString('utf8'));

    expect(route).toBe('log');
    expect(dialectOf('log')).toBe(LOG_API);
    expect(readsFullness('log')).toBe(true);
    expect(dialectOfTarget('/v1/log/x')).toBe(LOG_API);
    expect(body).toEqual({ log_error: { code: 'c', message: 'm' } });
  });

  it('should be gone once unregistered', () => {
    unregister();

    expect(modelRouteOf('POST', '/v1/log')).toBeUndefined();
    expect(readsFullness('log')).toBe(false);
    unregister = registerDialect(LOG_API);
  });

  it("should have the usage tap read a response's usage by the dialect's reader", async () => {
    const tap = createUsageTap({ api: 'log', contentType: 'application/json' });

    tap.write(Buffer.from(JSON.stringify({ usage: { context_tokens: 1234 } })));

    expect(await tap.end()).toEqual({ ...usage(1234), outputTokens: 0 });
  });
});

describe('the engine on a test dialect', () => {
  it('should pass a conversation without epochs through untouched, named by its key', async () => {
    const body = logBody(OUTPUTS);

    const prepared = await engine.prepare(request(body));

    expect(prepared.body).toBe(body);
    expect(prepared).toMatchObject({ route: 'log', outcome: 'passthrough', reason: 'no_epoch', epochs: 0, window: 10_000 });
    expect(prepared.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should latch on a reading over the threshold, give the same bytes for the same transcript, keep the prefix as it grows, and inflate back', async () => {
    // Arrange
    const first = await engine.prepare(request(logBody(OUTPUTS)));
    engine.observe(first, { status: 200, usage: usage(9_000) });

    // Act
    const latched = await engine.prepare(request(logBody(OUTPUTS)));
    const again = await engine.prepare(request(logBody(OUTPUTS)));
    const grown = await engine.prepare(request(logBody([...OUTPUTS, filler(4000, 10)])));

    // Assert
    expect(latched).toMatchObject({ outcome: 'rewritten', latched: 1, epochs: 1 });
    expect(latched.outcome === 'rewritten' && latched.rescued).toBeGreaterThan(0);
    expect(fromUtf8(latched.body)).not.toContain(filler(4000, 0));
    expect(fromUtf8(latched.body)).toContain(filler(4000, 9));
    expect(again.body).toEqual(latched.body);
    const prefix = fromUtf8(latched.body).slice(0, fromUtf8(latched.body).lastIndexOf(']'));
    expect(fromUtf8(grown.body).startsWith(prefix)).toBe(true);
    expect((await inflateFromState(state, latched.body)).body).toEqual(logBody(OUTPUTS));
    expect((await inflateFromState(state, grown.body)).body).toEqual(logBody([...OUTPUTS, filler(4000, 10)]));
  });
});
