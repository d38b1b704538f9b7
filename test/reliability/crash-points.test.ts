/**
 * kill -9 at every step of latching an epoch and in the middle of a wire-log append (docs/design.md
 * invariant 8). The crash is injected with CTXSHED_TEST_CRASH_AT (src/state/crash-point.ts), set
 * only here. After each crash: `ctxshed verify` is clean, every stub the upstream ever received
 * names a file that exists and matches, and a restarted proxy continues with the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { startMessagesApi, type MessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve, type Served } from './serve-session.js';

// Per test, not afterEach: the points run concurrently (most of their time is spent waiting for
// the lock a killed proxy left to go stale).
type Cleanups = Array<() => Promise<unknown>>;

const POINTS = ['latch-after-first-file', 'latch-after-all-files', 'latch-after-record', 'first-rewritten-in-flight', 'wire-mid-append'] as const;

function modelBodies(upstream: MessagesApi): Buffer[] {
  return upstream.requests.filter(isMessagesRequest).map((r) => r.body);
}

async function startWith(cleanups: Cleanups, args: string[], env: Record<string, string> = {}): Promise<Served> {
  const served = await serve(args, env);
  cleanups.push(() => served.stop());
  return served;
}

/** Turns until the proxy dies; returns the body of the request it died on (or after). */
async function turnUntilKilled(client: ScriptedClient, served: Served, maxTurns: number, afterAnswer: number): Promise<Buffer> {
  for (let i = 0; i < maxTurns; i++) {
    const body = client.body();
    const res = await client.turnOnce().catch(() => undefined);
    // The wire record is written after the response: the process may die just after answering.
    const dead = await Promise.race([
      served.exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), res === undefined ? 2000 : afterAnswer)),
    ]);
    if (dead) return body;
  }
  throw new Error(`the proxy did not crash within ${maxTurns} turns`);
}

describe.concurrent('kill -9 at every step of latching an epoch', () => {
  for (const point of POINTS) {
    it(`should recover cleanly from a crash at ${point}`, async () => {
      const cleanups: Cleanups = [];
      try {
        await crashAndRecover(point, cleanups);
      } finally {
        while (cleanups.length > 0) await cleanups.pop()!();
      }
    }, 60_000);
  }
});

async function crashAndRecover(point: (typeof POINTS)[number], cleanups: Cleanups): Promise<void> {
  const dir = await tempStateDir('ctxshed-crash-');
  const state = layoutPaths(dir);
  const upstream = await startMessagesApi();
  cleanups.push(() => upstream.close());
  const args = ['--state', dir, '--upstream', upstream.url, '--window', '20000'];
  let served: Served;
  let client: ScriptedClient;
  if (point === 'wire-mid-append') {
    // Crash on a request that carries stubs: run the session up to its epoch first.
    const first = await startWith(cleanups, args);
    client = new ScriptedClient(first.url);
    for (let i = 0; i < 22; i++) await client.turnOnce();
    await first.stop();
    served = await startWith(cleanups, args, { CTXSHED_TEST_CRASH_AT: point });
    const carried = client.messages.slice();
    client = new ScriptedClient(served.url);
    client.messages.splice(0, client.messages.length, ...carried);
  } else {
    served = await startWith(cleanups, args, { CTXSHED_TEST_CRASH_AT: point });
    client = new ScriptedClient(served.url);
  }
  // The first wire line is appended about WIRE_FLUSH_DELAY_MS after the first answer, and the
  // crash is armed for it: wait for the death as long as a loaded machine may take, or the next
  // turn's request goes out first and the body cut is not the one the upstream saw last.
  const crashedOn = await turnUntilKilled(client, served, 40, point === 'wire-mid-append' ? 2_000 : 0);
  const exit = await served.exited;
  const beforeRestart = modelBodies(upstream);

  const verify = await runCtxshed(['verify', '--state', dir]);
  console.log(`${point}: killed after ${client.sent.length} requests; verify: ${verify.stdout.trim()}`);
  // Every body the upstream ever received inflates from the state left behind: no stub
  // named a missing or wrong file.
  for (const body of beforeRestart) await inflateFromState(state, body);

  const again = await startWith(cleanups, args);
  const resent: Buffer[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await postRaw(again.url, '/v1/messages?beta=true', crashedOn);
    expect(res.status).toBe(200);
    resent.push(modelBodies(upstream).at(-1)!);
  }
  for (const body of resent) expect(Buffer.from((await inflateFromState(state, body)).body).equals(crashedOn)).toBe(true);
  const verifyAfter = await runCtxshed(['verify', '--state', dir]);

  expect(exit.signal).toBe('SIGKILL');
  expect(verify.stdout).not.toMatch(/^problem:/m);
  expect(verify.stdout).toMatch(/^ok: /m);
  expect(verify.code).toBe(0);
  expect(verifyAfter.code).toBe(0);
  // Continues: the last two sends are the same rewritten bytes (a latch interrupted before
  // its record needs one reading after the restart before it latches again).
  expect(resent[2]!.equals(resent[1]!)).toBe(true);
  expect(resent[2]!.length).toBeLessThan(crashedOn.length);
  if (point === 'latch-after-record' || point === 'first-rewritten-in-flight' || point === 'wire-mid-append') {
    // The record survived: the very first send after the restart is already the rewrite.
    expect(resent[0]!.equals(resent[2]!)).toBe(true);
  }
  if (point === 'wire-mid-append') {
    // The request whose wire line was cut had reached the upstream: the same bytes again.
    expect(beforeRestart.at(-1)!.equals(resent[0]!)).toBe(true);
  }
}
