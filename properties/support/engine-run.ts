/** A generated conversation sent through one engine over a fresh state directory, request by request. */
import fs from 'node:fs/promises';
import { expect } from 'vitest';
import { EpochEngine, latchedOf, type EngineRequest, type EngineSettings, type Prepared } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir } from '../../test/support/test-proxy.js';
import { sameBytes } from './bytes.js';

/** A reading at 90% of a 1,000-token window: every request's response pushes the next over the threshold. */
export const FULL_READING = { inputTokens: 900, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 };

/** A Messages request with this body. */
export const messagesRequest = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body });

/** Every request of the conversation through one engine, each answered with `FULL_READING`; the state directory and what was sent. */
export async function runThroughEngine(
  requests: readonly { readonly bytes: Uint8Array }[],
  settings: EngineSettings,
  dirPrefix: string,
): Promise<{ dir: string; sent: Prepared[] }> {
  const dir = await tempStateDir(dirPrefix);
  const engine = new EpochEngine(await openStateDir(dir), settings);
  const sent: Prepared[] = [];
  for (const r of requests) {
    const prepared = await engine.prepare(messagesRequest(r.bytes));
    engine.observe(prepared, { status: 200, usage: FULL_READING });
    sent.push(prepared);
  }
  await engine.settle();
  return { dir, sent };
}

/**
 * The same-bytes property of one conversation through the engine: a fresh engine over the state its
 * run left gives the same bytes for the last transcript twice, and the bytes the run sent unless an
 * epoch latched since. Returns how many requests of the run latched, for the caller to see the kind
 * at work.
 */
export async function checkSameBytesFromFreshEngine(
  requests: readonly { readonly bytes: Uint8Array }[],
  settings: EngineSettings,
  dirPrefix: string,
): Promise<number> {
  const { dir, sent } = await runThroughEngine(requests, settings, dirPrefix);
  const last = requests[requests.length - 1]!.bytes;
  const again = new EpochEngine(await openStateDir(dir), settings);
  const [a, b] = [await again.prepare(messagesRequest(last)), await again.prepare(messagesRequest(last.slice()))];
  expect(sameBytes(a.body, b.body)).toBe(true);
  expect(sameBytes(a.body, sent[sent.length - 1]!.body) || a.epochs !== sent[sent.length - 1]!.epochs).toBe(true);
  await again.settle();
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 5 });
  return sent.filter((p) => latchedOf(p) !== undefined).length;
}
