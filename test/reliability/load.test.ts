/**
 * Two proxies on one state directory, many conversations at once, concurrent requests per
 * conversation: no epoch lost or duplicated, every record parses, every elided file verifies,
 * every body forwarded is the original or a valid rewrite. Figures: test/bench/load.ts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { parseConversationRecord } from '../../src/state/conversation-record.js';
import { verifyState } from '../../src/state/verify-state.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest, parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { startTestProxy, tempStateDir, testConfig } from '../support/test-proxy.js';

const CONVERSATIONS = Number(process.env['CTXSHED_LOAD_CONVERSATIONS'] ?? 12);
const TURNS = Number(process.env['CTXSHED_LOAD_TURNS'] ?? 44);

/** Conversations told apart by their prompt (the second text block of the first message). */
function promptOf(req: ReceivedRequest): string {
  const body = parseRequestBody(req) as { messages?: Array<{ content: Array<{ text?: string }> }> } | undefined;
  return body?.messages?.[0]?.content?.[1]?.text ?? 'unknown';
}

describe('load: two proxies, many conversations, concurrent requests', () => {
  it(`should lose or duplicate no epoch over ${CONVERSATIONS} conversations`, async () => {
    const dir = await tempStateDir('ctxshed-load-');
    const upstream = await startMessagesApi({ conversationOf: promptOf });
    const a = await startTestProxy(dir, testConfig(upstream.url));
    const b = await startTestProxy(dir, testConfig(upstream.url));
    const sent = new Map<string, Buffer[]>();
    let requests = 0;
    try {
      const run = async (c: number): Promise<void> => {
        const prompt = `Conversation ${c}: read the project files.`;
        const client = new ScriptedClient(a.url, { prompt });
        for (let t = 0; t < TURNS; t++) {
          const body = client.body();
          // The same transcript to both proxies at once, and a count_tokens beside it.
          const [ra, rb, rc] = await Promise.all([
            postRaw(a.url, '/v1/messages?beta=true', body),
            postRaw(b.url, '/v1/messages?beta=true', body),
            postRaw(c % 2 === 0 ? a.url : b.url, '/v1/messages/count_tokens?beta=true', body),
          ]);
          requests += 3;
          if (ra.status !== 200 || rb.status !== 200 || rc.status !== 200) throw new Error(`statuses ${ra.status} ${rb.status} ${rc.status}`);
          const list = sent.get(prompt) ?? [];
          list.push(body);
          sent.set(prompt, list);
          await client.answer(JSON.parse((t % 2 === 0 ? ra : rb).body.toString('utf8')) as { content: Array<Record<string, unknown>> });
        }
      };
      await Promise.all(Array.from({ length: CONVERSATIONS }, (_, c) => run(c)));
    } finally {
      await a.close();
      await b.close();
      await upstream.close();
    }
    const state = layoutPaths(dir);
    const names = await fs.readdir(state.conversationsDir);
    const records = await Promise.all(
      names.map(async (n) => parseConversationRecord(await fs.readFile(path.join(state.conversationsDir, n), 'utf8'), n.slice(0, 64), n)),
    );
    const verify = await verifyState(dir);
    // Every model call forwarded is the original bytes or a valid rewrite of them.
    let rewritten = 0;
    let bad = 0;
    for (const req of upstream.requests) {
      if (!isMessagesRequest(req)) continue;
      const originals = sent.get(promptOf(req)) ?? [];
      if (originals.some((o) => o.equals(req.body))) continue;
      const inflated = indexTranscript(req.body).kind === 'indexed' ? Buffer.from((await inflateFromState(state, req.body)).body) : undefined;
      if (inflated !== undefined && originals.some((o) => o.equals(inflated))) rewritten++;
      else bad++;
    }
    const epochs = records.map((r) => r.epochs.map((e) => e.n));
    console.log(
      `load: ${requests} requests, ${CONVERSATIONS} conversations, ${records.length} records, epochs ${JSON.stringify(epochs)}, ${rewritten} rewritten model calls, verify ${JSON.stringify(verify.checked)}`,
    );

    expect(records).toHaveLength(CONVERSATIONS);
    for (const e of epochs) expect(e).toEqual(Array.from({ length: e.length }, (_, i) => i + 1));
    expect(epochs.every((e) => e.length >= 1)).toBe(true);
    expect(bad).toBe(0);
    expect(rewritten).toBeGreaterThan(0);
    expect(verify.problems).toEqual([]);
  }, 120_000);
});
