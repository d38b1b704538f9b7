/**
 * `--labels model` through the real proxy against a scripted upstream: the classifier request
 * carries no planted secret and no chunk head over 2,000 characters, goes with the client's own
 * key, and its labels and scores land in the ledger; a classifier slower than the time limit
 * leaves the latch to the local rules. The wire log shows the call with its usage and cost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_HEAD_MAX_CHARS, CLASSIFIER_LABELS } from '../../src/core/labels/classifier-request.js';
import { checkEpochLedger } from '../../src/core/labels/ledger.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { isMessagesRequest, parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import { toolOutput } from '../../src/scripted/tool-output.js';
import { layoutPaths } from '../../src/state/layout.js';
import { readConversation } from '../../src/state/read-conversation.js';
import { verifyState } from '../../src/state/verify-state.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const EMAIL = 'ana.lima@personal.io';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function isClassifierCall(req: ReceivedRequest): boolean {
  const body = parseRequestBody(req) as { system?: unknown };
  return typeof body.system === 'string' && body.system.startsWith("You label chunks of a coding agent's context");
}

interface Question {
  chunks: Array<{ id: string; header: string; head: string }>;
}

function questionOf(req: ReceivedRequest): Question {
  const body = parseRequestBody(req) as { messages: Array<{ content: string }> };
  return JSON.parse(body.messages[0]!.content) as Question;
}

/** The upstream: the scripted API, whose classifier calls `classify` answers. */
function startUpstream(classify: (req: ReceivedRequest) => Promise<object> | object): Promise<MessagesApi> {
  return startTestApi({
    respond: async (req) => (isMessagesRequest(req) && isClassifierCall(req) ? { kind: 'json', body: await classify(req) } : undefined),
  });
}

/** Scores: the first chunk asked about is noise (drop 0.95), the rest can be fetched again (pointer 0.7). */
function scoresFor(req: ReceivedRequest): object {
  const results = questionOf(req).chunks.map((chunk, i) => ({
    id: chunk.id,
    scores: { [CLASSIFIER_LABELS.keep]: 0.1, [CLASSIFIER_LABELS.drop]: i === 0 ? 0.95 : 0.2, [CLASSIFIER_LABELS.pointer]: 0.7 },
  }));
  return {
    id: 'msg_c',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: JSON.stringify({ results }) }],
    usage: { input_tokens: 2000, output_tokens: 150 },
  };
}

/** Runs a session whose turn 2 read a secret and turn 4 an address, until an epoch latched. */
async function session(upstream: MessagesApi, overrides: { classifierTimeoutMs?: number } = {}) {
  const dir = await tempStateDir();
  const proxy = await startTestProxy(dir, testConfig(upstream.url, { labels: 'model', ...overrides }));
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
  const client = new ScriptedClient(proxy.url, {
    runTool: (_use, turn) =>
      turn === 2
        ? `${toolOutput(2, 1500)}\nSTRIPE_SECRET_KEY=${SECRET}\n`
        : turn === 4
          ? `${toolOutput(4, 1500)}\nreviewed by ${EMAIL}\n`
          : toolOutput(turn, 3000),
  });
  for (let i = 0; i < 30; i++) expect((await client.turnOnce()).status).toBe(200);
  const wire = await waitForWire(dir, client.sent.length);
  const latching = wire.find((r) => r['latched'] !== undefined);
  expect(latching).toBeDefined();
  const record = await readConversation(layoutPaths(dir), String(latching!['key']));
  return { dir, latching: latching!, epoch: record!.epochs[0]! };
}

describe('--labels model', () => {
  it("should send the classifier no secret and no long chunk, with the client's key, and freeze its labels and scores", async () => {
    const upstream = await startUpstream(scoresFor);

    const { dir, latching, epoch } = await session(upstream);

    const calls = upstream.requests.filter(isClassifierCall);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const text = call.body.toString('utf8');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(EMAIL);
      expect(call.headers['x-api-key']).toBe('sk-ant-test-000');
      for (const chunk of questionOf(call).chunks) expect(Array.from(chunk.head).length).toBeLessThanOrEqual(CHUNK_HEAD_MAX_CHARS);
    }
    expect(epoch.policy.version).toBe(3);
    expect(checkEpochLedger(epoch)).toEqual([]);
    const rows = epoch.ledger!;
    expect(rows.find((r) => r.rule === 'secret')).toMatchObject({ verdict: 'drop', score: 'local' });
    expect(rows.filter((r) => r.rule === 'model').map((r) => [r.verdict, r.score])).toEqual(
      rows.filter((r) => r.rule === 'model').map((_, i) => (i === 0 ? ['drop', 0.95] : ['pointer', 0.7])),
    );
    expect(latching['classifier']).toMatchObject({
      model: 'claude-sonnet-4-5',
      outcome: 'scored',
      status: 200,
      usage: { input: 2000, output: 150 },
      costUsd: 0.00825,
    });
    expect((await verifyState(dir)).problems).toEqual([]);
  });

  it('should latch with the local rules when the classifier is slower than its time limit', async () => {
    const upstream = await startUpstream(async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return scoresFor(req);
    });

    const { latching, epoch } = await session(upstream, { classifierTimeoutMs: 200 });

    expect(latching['classifier']).toMatchObject({ outcome: 'timeout', scored: 0 });
    expect(epoch.ledger!.every((r) => r.score === 'local')).toBe(true);
    expect(checkEpochLedger(epoch)).toEqual([]);
  });
});
