/**
 * A sealed block in a live conversation: its stub keeps being sent byte for byte (the cache holds,
 * the text stays out of the window) by a running proxy and by a restarted one, while its text
 * sits in sealed/ where no Read grant reaches; inflate and verify still find it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStub } from '../../src/core/stub.js';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { sealBlock, unsealBlock } from '../../src/state/seal-block.js';
import { verifyState } from '../../src/state/verify-state.js';
import { textBlock } from '../../src/scripted/message.js';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

function body(turns: number): Buffer {
  const messages: object[] = [{ role: 'user', content: 'Read everything.' }];
  for (let i = 0; i < turns; i++) {
    const id = `toolu_01Read${String(i).padStart(4, '0')}`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/p/f${i}.txt` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `file ${i}\n${'some line of text\n'.repeat(150)}` }] });
  }
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', messages, max_tokens: 100 }));
}

/** The stubs' sha256s in a body sent upstream, in order. */
function stubShas(sent: Buffer): string[] {
  const parsed = JSON.parse(sent.toString('utf8')) as { messages: Array<{ content: unknown }> };
  return parsed.messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ content?: unknown }>) : []))
    .flatMap((b) => {
      const stub = typeof b.content === 'string' ? parseStub(b.content) : undefined;
      return stub === undefined ? [] : [stub.sha256];
    });
}

/** Every reply reports 95% of the test proxy's 20,000-token window, so an epoch latches. */
const NEAR_FULL = { input_tokens: 19_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('a sealed block in a live conversation', () => {
  it('should keep its stub, byte for byte, in a running and in a restarted proxy', async () => {
    const dir = await tempStateDir();
    const upstream = await startTestApi({ respond: () => ({ kind: 'message', content: [textBlock('ok')], usage: NEAR_FULL }) });
    cleanups.push(() => upstream.close());
    const config = testConfig(upstream.url, { keepRecent: 2, minBytes: 1024 });
    let proxy: RunningProxy = await startTestProxy(dir, config);
    const send = async (turns: number): Promise<Buffer> => {
      expect((await postRaw(proxy.url, '/v1/messages', body(turns))).status).toBe(200);
      return upstream.requests.at(-1)!.body;
    };
    await send(8);
    const latched = await send(9);
    const shas = stubShas(latched);
    expect(shas.length).toBeGreaterThan(0);
    const state = layoutPaths(await fs.realpath(dir));

    await sealBlock(state, shas[0]!, { reason: 'test', now: '2026-01-01T00:00:00.000Z' });
    const running = await send(10);
    await proxy.close();
    proxy = await startTestProxy(dir, config);
    cleanups.push(() => proxy.close());
    const restarted = await send(10);

    expect(restarted.equals(running)).toBe(true);
    // The sealed block's stub is where it was (a later epoch may have added more after it).
    expect(stubShas(restarted).slice(0, shas.length)).toEqual(shas);
    await expect(fs.stat(path.join(state.elidedDir, `${shas[0]}.txt`))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(Buffer.from((await inflateFromState(state, restarted)).body).equals(body(10))).toBe(true);
    expect((await verifyState(state.root)).problems).toEqual([]);
    const wire = await waitForWire(dir, 4);
    expect(wire.slice(2).map((w) => w['reason'])).toEqual([undefined, undefined]);

    await unsealBlock(state, shas[0]!);
    expect((await send(10)).equals(restarted)).toBe(true);
  });
});
