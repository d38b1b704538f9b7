/**
 * Bad input fails open (docs/design.md invariant 7): a bounded fuzz of the running proxy. Every body
 * reaches the upstream byte-identical or as a valid rewrite, the proxy stays up and answers, and
 * every pass-through has a reason from the closed list. The long run is test/bench/fuzz-long.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { verifyState } from '../../src/state/verify-state.js';
import { checkWireReasons, postOversized, runFuzz, type FuzzTally } from './fuzz-bodies.js';
import { startSession, type Session } from './serve-session.js';

const COUNT = Number(process.env['CTXSHED_FUZZ_COUNT'] ?? 1000);
const SEED = Number(process.env['CTXSHED_FUZZ_SEED'] ?? 7);

let session: Session | undefined;
afterAll(async () => {
  await session?.close();
});

describe('fuzzing the running proxy with bad bodies', () => {
  it(`should forward ${COUNT} fuzzed bodies byte-identical or as valid rewrites, and stay up`, async () => {
    session = await startSession();
    const s = session;
    const corpus = { bodies: [...s.client.sent], rewritten: [] as Buffer[] };
    s.received();
    const tally: FuzzTally = await runFuzz({ proxyUrl: s.served.url, stateDir: s.dir, corpus, count: COUNT, seed: SEED, received: s.received });
    // Still up and still rewriting: the session goes on through the same process.
    const after = await s.client.turnOnce();
    // Each wire record is appended after its response: wait for the last one.
    let wire = await checkWireReasons(s.dir);
    for (let i = 0; i < 100 && wire.records < s.client.sent.length + COUNT; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      wire = await checkWireReasons(s.dir);
    }
    const verify = await verifyState(s.dir);
    console.log(`fuzz: ${JSON.stringify({ seed: SEED, ...tally, wire: wire.reasons })}`);

    expect(tally.failures).toEqual([]);
    expect(tally.sent).toBe(COUNT);
    expect(tally.rewritten).toBeGreaterThan(0);
    expect(after.status).toBe(200);
    expect(s.served.child.exitCode).toBe(null);
    expect(wire.problems).toEqual([]);
    expect(wire.records).toBe(s.client.sent.length + COUNT);
    expect(verify.problems).toEqual([]);
  }, 180_000);

  it('should answer an oversized body with a 413 in the API error shape, declared or chunked', async () => {
    const s = session!;
    const declared = await postOversized(s.served.url, 33 * 1024 * 1024, false);
    const chunked = await postOversized(s.served.url, 40 * 1024 * 1024, true);
    s.received();

    console.log(
      `413: declared ${33 * 1024 * 1024} bytes, stopped after ${declared.sentBytes}; chunked stopped after ${chunked.sentBytes} of ${40 * 1024 * 1024} bytes`,
    );
    for (const res of [declared, chunked]) {
      expect(res.status).toBe(413);
      const body = JSON.parse(res.body.toString('utf8')) as { type: string; error: { type: string; message: string } };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('request_too_large');
      expect(body.error.message).toMatch(/^ctxshed: /);
    }
    expect(s.served.child.exitCode).toBe(null);
  }, 60_000);
});
