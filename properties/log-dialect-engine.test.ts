/**
 * Invariants 2 and 3, determinism and shared prefix, for a dialect registered by a test
 * (test/dialect/log-dialect.ts, docs/adding-a-dialect.md), through the epoch engine: log
 * conversations of hostile tool outputs grown turn by turn like a client, with a reading over the
 * threshold after a generated turn, so an epoch latches. The same transcript gives the same bytes
 * (asked twice, and by a fresh engine over the same state), a grown transcript keeps the rewritten
 * bytes of the shorter one as its prefix while no new epoch latches, and every body sent inflates
 * back to the client's.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDialect } from '../src/core/dialects/registry.js';
import type { Usage } from '../src/core/usage.js';
import { engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings } from '../src/rescue/index.js';
import { inflateFromState } from '../src/state/inflate-from-state.js';
import type { StateDir } from '../src/state/layout.js';
import { openStateDir } from '../src/state/open-state-dir.js';
import { LOG_API } from '../test/dialect/log-dialect.js';
import { shortTextArb, toolTextArb } from './arbitraries/text.js';
import { sameBytes } from './support/bytes.js';

const SETTINGS: EngineSettings = engineSettingsOf({ threshold: 0.5, window: 10_000, keepRecent: 1, minBytes: 1024 });
const ENCODER = new TextEncoder();

const reading = (tokens: number): { status: number; usage: Usage } => ({
  status: 200,
  usage: { inputTokens: tokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 5 },
});

/** The client's body after `outputs`: the prompt, then a call and its output for each. */
function logBody(prompt: string, outputs: readonly string[]): Uint8Array {
  const turns: unknown[] = [{ role: 'user', text: prompt }];
  for (const [i, text] of outputs.entries()) turns.push({ role: 'assistant', text: `reading ${i}` }, { role: 'tool', id: `c${i}`, text });
  return ENCODER.encode(JSON.stringify({ model: 'log-1', turns }));
}

const request = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/log', headers: { 'x-log-session': 's1' }, body });

/** A conversation: its prompt, its tool outputs, and the turn after which a reading is over the threshold. */
const conversationArb = fc
  .record({ prompt: shortTextArb, outputs: fc.array(toolTextArb, { minLength: 2, maxLength: 7 }), over: fc.nat() })
  .map(({ prompt, outputs, over }) => ({ prompt, outputs, over: over % outputs.length }));

let root = '';
let unregister: () => void = () => undefined;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-log-engine-'));
  unregister = registerDialect(LOG_API);
});
afterAll(async () => {
  unregister();
  await fs.rm(root, { recursive: true, force: true });
});

/** One run: each turn's body, what the engine sent for it, and how many epochs it carried. */
async function runConversation(state: StateDir, c: { prompt: string; outputs: string[]; over: number }) {
  const engine = new EpochEngine(state, SETTINGS);
  const turns: Array<{ body: Uint8Array; sent: Uint8Array; again: Uint8Array; epochs: number }> = [];
  for (let n = 1; n <= c.outputs.length; n++) {
    const body = logBody(c.prompt, c.outputs.slice(0, n));
    const prepared = await engine.prepare(request(body));
    const again = await engine.prepare(request(body));
    turns.push({ body, sent: prepared.body, again: again.body, epochs: prepared.epochs });
    engine.observe(prepared, reading(n - 1 === c.over ? 9_000 : 1_000));
  }
  await engine.settle();
  engine.close();
  return turns;
}

describe('the engine on a registered test dialect', () => {
  it('should give the same bytes for the same transcript, keep the prefix as it grows, and inflate back', async () => {
    let run = 0;
    let rewritten = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb, async (c) => {
        const state = await openStateDir(path.join(root, `run-${run++}`));

        const turns = await runConversation(state, c);
        const fresh = new EpochEngine(state, SETTINGS);
        const last = turns.at(-1)!;
        const restarted = (await fresh.prepare(request(last.body))).body;
        await fresh.settle();
        fresh.close();

        for (const [i, t] of turns.entries()) {
          expect(sameBytes(t.again, t.sent), `turn ${i}: asked twice`).toBe(true);
          expect(sameBytes((await inflateFromState(state, t.sent)).body, t.body), `turn ${i}: inflates back`).toBe(true);
          if (!sameBytes(t.sent, t.body)) rewritten++;
          const next = turns[i + 1];
          if (next === undefined || next.epochs !== t.epochs) continue;
          // The body ends `]}`: everything before that close is the grown body's prefix.
          const prefix = t.sent.subarray(0, t.sent.length - 2);
          expect(sameBytes(next.sent.subarray(0, prefix.length), prefix), `turn ${i + 1}: keeps turn ${i}'s bytes`).toBe(true);
        }
        expect(sameBytes(restarted, last.sent), 'a fresh engine over the same state').toBe(true);
      }),
      { numRuns: 30 },
    );
    // The properties mean something only if some runs were rewritten.
    expect(rewritten).toBeGreaterThan(0);
  }, 120_000);
});
