/**
 * Writes test/fixtures/state-v1/ (see its README): a state directory in the record format of the
 * commit it is run on, with a rescue and a shed conversation, and for each the last body the API got
 * and the body the client sent for it. Skipped unless MAKE_STATE_FIXTURE names the directory to write:
 *   MAKE_STATE_FIXTURE=test/fixtures/state-v1 npx vitest run --config test/vitest.config.ts test/state/make-state-fixture.test.ts
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/scripted/client.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const OUT = process.env['MAKE_STATE_FIXTURE'];

async function session(dir: string, mode: 'rescue' | 'shed', turns: number): Promise<{ sent: Buffer; received: Buffer }> {
  const upstream = await startTestApi();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, { mode }));
  try {
    const client = new ScriptedClient(proxy.url, { prompt: `A ${mode} session for the state fixture.` });
    for (let i = 0; i < turns; i++) expect((await client.turnOnce()).status).toBe(200);
    await waitForWire(dir, client.sent.length);
    const received = upstream.requests.filter(isMessagesRequest).map((r) => r.body);
    return { sent: client.sent.at(-1)!, received: received.at(-1)! };
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

describe.skipIf(OUT === undefined)('make the state fixture', () => {
  it('should write a state directory with a rescue and a shed conversation', async () => {
    const dir = await tempStateDir('ctxshed-fixture-');
    const bodies = { rescue: await session(dir, 'rescue', 40), shed: await session(dir, 'shed', 45) };
    const out = path.resolve(OUT!);
    await fs.rm(path.join(out, 'state'), { recursive: true, force: true });
    await fs.cp(dir, path.join(out, 'state'), { recursive: true, filter: (src) => !/wire\.jsonl|\.lock$|\/tmp$/.test(src) });
    for (const [mode, { sent, received }] of Object.entries(bodies)) {
      await fs.writeFile(path.join(out, `${mode}-sent.json`), sent);
      await fs.writeFile(path.join(out, `${mode}-received.json`), received);
    }
  }, 120_000);
});
