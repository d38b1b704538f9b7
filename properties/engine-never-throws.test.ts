/**
 * The engine's boundary, fuzzed the way undici fuzzes its parser (docs/style.md "Tests"): any method,
 * target, headers and bytes into `EpochEngine.prepare` never reject, and a pass-through sends
 * exactly the bytes that came in. Also over a conversation already past its threshold, so the
 * latch and the rewrite run on whatever the bytes are.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedRecentBudget } from '../src/core/shed/shed-types.js';
import { PASSTHROUGH_REASONS } from '../src/core/passthrough-reasons.js';
import { DEFAULT_ENGINE_SETTINGS, engineSettingsOf, EpochEngine, stubsOf, type EngineRequest } from '../src/rescue/index.js';
import type { StateDir } from '../src/state/layout.js';
import { openStateDir } from '../src/state/open-state-dir.js';
import { requestBodyArb } from './arbitraries/index.js';
import { sameBytes, utf8 } from './support/bytes.js';

const HEADER_NAMES = ['content-encoding', 'anthropic-beta', 'x-claude-code-agent-id', 'x-claude-code-session-id', 'content-type'];

const headerValueArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('gzip', 'identity', 'IDENTITY', 'context-1m-2025-08-07', ''),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
  fc.constant(undefined),
);

const headersArb: fc.Arbitrary<EngineRequest['headers']> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  fc.dictionary(fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.string({ maxLength: 12 })), headerValueArb, { maxKeys: 5 }),
);

const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 2000 }),
  fc.json({ maxDepth: 4 }).map(utf8),
  { arbitrary: requestBodyArb(6).map((r) => r.bytes), weight: 4 },
  // A real-shaped body cut short or with a byte flipped.
  fc.tuple(requestBodyArb(6), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([r, at, byte]) => {
    const bytes = r.bytes.slice();
    if (bytes.length > 0) bytes[at % bytes.length] = byte;
    return at % 2 === 0 ? bytes : bytes.subarray(0, at % (bytes.length + 1));
  }),
);

// Mostly model calls, so most cases reach the body; the rest try the request line itself.
const requestArb: fc.Arbitrary<EngineRequest> = fc.record({
  method: fc.oneof({ arbitrary: fc.constant('POST'), weight: 8 }, fc.constantFrom('GET', 'HEAD', 'PUT', 'post'), fc.string({ maxLength: 8 })),
  target: fc.oneof(
    { arbitrary: fc.constantFrom('/v1/messages', '/v1/messages?beta=true', '/v1/messages/count_tokens'), weight: 8 },
    fc.constantFrom('/v1/models', '', '?'),
    fc.string({ maxLength: 30 }),
  ),
  headers: headersArb,
  body: bodyArb,
});

let dir: string;
let state: StateDir;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-engine-prop-'));
  state = await openStateDir(dir);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Prepares `request` and checks what must hold of any outcome. */
async function expectSafe(engine: EpochEngine, request: EngineRequest): Promise<void> {
  const copy = request.body.slice();

  const prepared = await engine.prepare(request);

  expect(sameBytes(request.body, copy)).toBe(true);
  if (prepared.outcome === 'rewritten') {
    expect(prepared.rescued).toBeGreaterThan(0);
  } else {
    expect(Object.keys(PASSTHROUGH_REASONS)).toContain(prepared.reason);
    expect(prepared.body).toBe(request.body);
  }
}

describe('EpochEngine.prepare', () => {
  it('should never reject on arbitrary requests, and pass the input bytes through as they came', async () => {
    const engine = new EpochEngine(state, DEFAULT_ENGINE_SETTINGS);
    await fc.assert(fc.asyncProperty(requestArb, (request) => expectSafe(engine, request)));
  });

  it('should never reject over a conversation past its threshold, where the latch and the rewrite run', async () => {
    // A tiny window and no minimum gain: any eligible block latches.
    const engine = new EpochEngine(state, engineSettingsOf({ window: 1000, minGainFraction: 0, keepRecent: 1, minBytes: 1 }));
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const first = await engine.prepare(request);
        engine.observe(first, { status: 200, usage: { inputTokens: 990, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 } });

        await expectSafe(engine, request);
      }),
    );
  });

  it('should never reject in shed mode over a conversation past its threshold, where the span latch and the splice run', async () => {
    // A tiny window, no minimum gain, the smallest recent window and a long horizon: any span latches.
    const settings = engineSettingsOf({ mode: 'shed' as const, window: 1000, minGainFraction: 0, horizon: 1e9, shedPolicy: fixedRecentBudget(0) });
    const engine = new EpochEngine(state, settings);
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const first = await engine.prepare(request);
        engine.observe(first, { status: 200, usage: { inputTokens: 990, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 } });

        await expectSafe(engine, request);
      }),
    );
    // Not vacuous: spans did latch along the way.
    expect([...engine.conversations()].some((c) => c.items.span.length > 0)).toBe(true);
  });
});

describe('EpochEngine.prepareAfterOverflow', () => {
  it('should never reject on arbitrary requests, and retry only with a rewrite carrying more stubs', async () => {
    const engine = new EpochEngine(state, engineSettingsOf({ window: 1000, keepRecent: 1, minBytes: 1 }));
    const overflowArb = fc.record({ tokens: fc.integer({ min: 1, max: 5000 }), limit: fc.integer({ min: 1, max: 2000 }) });
    await fc.assert(
      fc.asyncProperty(requestArb, overflowArb, async (request, overflow) => {
        const copy = request.body.slice();
        const first = await engine.prepare(request);

        const outcome = await engine.prepareAfterOverflow(request, first, overflow);

        expect(sameBytes(request.body, copy)).toBe(true);
        if (!engine.canRescueOverflow(first)) expect(outcome).toMatchObject({ kind: 'declined', why: 'not_rescuable' });
        if (outcome.kind === 'retry') {
          expect(outcome.prepared.outcome).toBe('rewritten');
          expect(stubsOf(outcome.prepared).rescued).toBeGreaterThan(stubsOf(first).rescued);
        }
      }),
    );
  });
});
