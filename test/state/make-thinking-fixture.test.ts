/**
 * Writes test/fixtures/state-v1-thinking/ (see its README): a state directory in the record format
 * of the commit it is run on whose epochs remove thinking blocks (a tool-result epoch and a span
 * epoch on claude-opus-5-5, and a correction epoch, trigger `prefix_check`, on a model ctxshed
 * learned runs the check), with, for each conversation, its session header, the last body the API
 * got and the body the client sent for it. Skipped unless MAKE_STATE_FIXTURE names the directory:
 *   MAKE_STATE_FIXTURE=test/fixtures/state-v1-thinking npx vitest run --config test/vitest.config.ts test/state/make-thinking-fixture.test.ts
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thinkingLoop } from '../core/thinking/thinking-bodies.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const OUT = process.env['MAKE_STATE_FIXTURE'];

const MISMATCH = JSON.stringify({
  type: 'error',
  error: {
    type: 'invalid_request_error',
    message:
      'messages.3.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
  },
});

/** The conversations: the session header that keys each, its mode, model and the turns of each request. */
const SESSIONS = [
  { name: 'opus-rescue', mode: 'rescue', model: 'claude-opus-5-5', turns: [10, 11, 12, 13] },
  { name: 'opus-shed', mode: 'shed', model: 'claude-opus-5-5', turns: [10, 11, 12, 13] },
  { name: 'correction', mode: 'rescue', model: 'gateway-alias', turns: [10, 10, 11] },
] as const;

/** An upstream at 18,000 of a 20,000 window, refusing the gateway alias's changed bodies as the prefix check does. */
async function startUpstream(): Promise<{ url: string; bodies: Buffer[]; close: () => Promise<void> }> {
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body);
      const text = body.toString('utf8');
      if (text.includes('gateway-alias') && text.includes('[ctxshed:') && text.includes('Sig3')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(MISMATCH);
        return;
      }
      const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 17_990, output_tokens: 5 };
      const message = { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, close };
}

const big = (t: number): number => (t < 4 ? 8000 : 40);

describe.skipIf(OUT === undefined)('make the thinking state fixture', () => {
  it('should write a state directory whose epochs remove thinking blocks', async () => {
    const dir = await tempStateDir('ctxshed-fixture-');
    const upstream = await startUpstream();
    const out = path.resolve(OUT!);
    await fs.rm(out, { recursive: true, force: true });
    await fs.mkdir(out, { recursive: true });
    let requests = 0;
    for (const s of SESSIONS) {
      const proxy = await startTestProxy(dir, testConfig(upstream.url, { mode: s.mode }));
      let sent: Uint8Array = new Uint8Array();
      for (const turns of s.turns) {
        sent = thinkingLoop(turns, s.model, big);
        const res = await fetch(`${proxy.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-claude-code-session-id': s.name },
          body: sent,
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      requests += s.turns.length;
      await waitForWire(dir, requests);
      await proxy.close();
      await fs.writeFile(path.join(out, `${s.name}-sent.json`), sent);
      await fs.writeFile(path.join(out, `${s.name}-received.json`), upstream.bodies.at(-1)!);
    }
    await upstream.close();
    await fs.cp(dir, path.join(out, 'state'), { recursive: true, filter: (src) => !/wire\.jsonl|\.lock$|\/tmp$|\/proxies$|\.locks$/.test(src) });
  }, 120_000);
});
