/**
 * Issue 41 item 6: two `ctxshed serve` processes (the built CLI) on one state directory, requests
 * alternated between them, send the upstream the bytes one process sends for the same script, with
 * epochs latching. Each process used to keep its own usage reading, so the one that took a turn
 * judged it on the reading of the turn before the last: the epoch latched a turn or more late.
 */
import fs from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { runCtxshed } from '../support/cli-process.js';
import { startRoundRobin } from '../support/round-robin.js';
import { tempStateDir } from '../support/test-proxy.js';
import { serve } from '../reliability/serve-session.js';

const TURNS = 24;
const PROMPTS = ['Please read the project files.', 'Please read the other project files.'];

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** The script (two conversations, a turn of each in turn) through `count` processes on one directory; the model bodies the upstream got, its path as `<state>`. */
async function runScript(count: number): Promise<Buffer[]> {
  const dir = await tempStateDir('ctxshed-dir-replicas-');
  dirs.push(dir);
  const upstream = await startMessagesApi();
  const served = [];
  for (let i = 0; i < count; i++) served.push(await serve(['--state', dir, '--upstream', upstream.url, '--window', '20000']));
  // The conversations take turns, and each of their requests goes to the next process.
  const balancer = await startRoundRobin(
    served.map((s) => s.url),
    (n) => Math.floor(n / PROMPTS.length) % count,
  );
  const clients = PROMPTS.map((prompt) => new ScriptedClient(balancer.url, { prompt }));
  try {
    for (let i = 0; i < TURNS; i++) for (const client of clients) expect((await client.turnOnce()).status).toBe(200);
  } finally {
    for (const client of clients) client.close();
    await balancer.close();
    for (const s of served) await s.stop();
    await upstream.close();
  }
  expect((await runCtxshed(['verify', '--state', dir])).code).toBe(0);
  // Stubs name the state directory's files: each run's own directory, the same length.
  return upstream.requests.filter(isMessagesRequest).map((r) => Buffer.from(r.body.toString('utf8').replaceAll(dir, '<state>'), 'utf8'));
}

describe('two serve processes on one state directory', () => {
  it('should send the bytes one process sends, with epochs latching', async () => {
    const single = await runScript(1);
    const two = await runScript(2);

    expect(single.filter((b) => b.includes('[ctxshed')).length).toBeGreaterThan(4);
    expect(two).toHaveLength(single.length);
    const differing = two.flatMap((body, i) => (body.equals(single[i]!) ? [] : [i + 1]));
    expect(differing).toEqual([]);
  }, 180_000);
});
