import { describe, expect, it } from 'vitest';
import { CHUNK_HEAD_MAX_CHARS, CLASSIFIER_LABELS } from '../../src/core/labels/classifier-request.js';
import { labelBlocks } from '../../src/core/labels/label-blocks.js';
import type { LabelScores } from '../../src/core/labels/classifier-response.js';
import type { ClassifierCall } from '../../src/rescue/engine-types.js';
import { labelByModel } from '../../src/rescue/model-labels.js';
import { sha256 } from '../core/bodies.js';
import { session } from '../core/labels/rules.js';
import { bash, bulk, read } from '../core/labels/session-body.js';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const HEADERS = { 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a', 'b'], cookie: 'no', 'user-agent': 'claude-cli' };

/** A session: a superseded read, a secret, and three blocks no rule decides (ids toolu_2..4). */
function fixture() {
  const s = session([
    read('/a.ts', bulk(3000, 1)),
    bash('cat .env', `${bulk(1500, 2)}\nSTRIPE_KEY=${SECRET}\n`),
    bash('npm test', bulk(30_000, 3)),
    { name: 'Grep', input: { pattern: 'retry' }, result: bulk(3000, 4) },
    read('/a.ts', bulk(3000, 5)),
  ]);
  const labels = labelBlocks({ body: s.body, index: s.index, candidates: s.plan, sha256 });
  return { s, labels };
}

function answer(scores: Record<string, [number, number, number]>, usage = { input_tokens: 1200, output_tokens: 90 }): string {
  const results = Object.entries(scores).map(([id, [keep, drop, pointer]]) => ({
    id,
    scores: { [CLASSIFIER_LABELS.keep]: keep, [CLASSIFIER_LABELS.drop]: drop, [CLASSIFIER_LABELS.pointer]: pointer },
  }));
  return JSON.stringify({
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [{ type: 'text', text: JSON.stringify({ results }) }],
    usage,
  });
}

/** A scripted call that records what it was sent. */
function scripted(reply: (body: string) => { status: number; body: string } | undefined | Promise<never>) {
  const sent: Array<{ body: string; headers: Readonly<Record<string, string>> }> = [];
  const call: ClassifierCall = async (request) => {
    sent.push(request);
    return reply(request.body);
  };
  return { call, sent };
}

function input(call: ClassifierCall, memory = new Map<string, LabelScores>(), timeoutMs = 10_000) {
  const { s, labels } = fixture();
  return { call, memory, key: 'k'.repeat(64), body: s.body, index: s.index, added: s.plan, labels, headers: HEADERS, model: 'claude-haiku-4-5', timeoutMs };
}

describe('labelByModel', () => {
  it('should label the chunks no rule decided by their scores, and report the call with its usage and cost', async () => {
    // Arrange
    const { call } = scripted(() => ({ status: 200, body: answer({ toolu_2: [0.05, 0.9, 0.3], toolu_3: [0.3, 0.1, 0.62], toolu_4: [0.8, 0.1, 0.2] }) }));

    // Act
    const { labels, report } = await labelByModel(input(call));

    // Assert
    expect(labels.map((l) => [l.ordinal, l.label, l.rule, l.score])).toEqual([
      [0, 'drop', 'superseded', 'local'],
      [1, 'drop', 'secret', 'local'],
      [2, 'drop', 'model', 0.9],
      [3, 'pointer', 'model', 0.62],
      [4, 'keep', 'model', 0.8],
    ]);
    expect(report).toMatchObject({
      model: 'claude-haiku-4-5',
      outcome: 'scored',
      status: 200,
      chunks: 3,
      scored: 3,
      usage: { input: 1200, output: 90 },
      costUsd: 0.00165,
    });
  });

  it('should send no secret, no chunk head over 2,000 characters, and only the auth headers', async () => {
    // Arrange
    const { call, sent } = scripted(() => ({ status: 200, body: answer({}) }));

    // Act
    await labelByModel(input(call));

    // Assert
    expect(sent).toHaveLength(1);
    const request = JSON.parse(sent[0]!.body) as { model: string; messages: Array<{ content: string }> };
    const question = JSON.parse(request.messages[0]!.content) as { chunks: Array<{ id: string; head: string }> };
    expect(sent[0]!.body).not.toContain(SECRET);
    expect(question.chunks.map((c) => c.id)).toEqual(['toolu_2', 'toolu_3', 'toolu_4']);
    for (const chunk of question.chunks) expect(Array.from(chunk.head).length).toBeLessThanOrEqual(CHUNK_HEAD_MAX_CHARS);
    expect(request.model).toBe('claude-haiku-4-5');
    expect(sent[0]!.headers).toEqual({ 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a, b' });
  });

  it('should ask about a block once: the scores it gave are remembered', async () => {
    // Arrange
    const { call, sent } = scripted(() => ({ status: 200, body: answer({ toolu_2: [0.9, 0, 0], toolu_3: [0.9, 0, 0], toolu_4: [0.9, 0, 0] }) }));
    const memory = new Map<string, LabelScores>();

    // Act
    await labelByModel(input(call, memory));
    const again = await labelByModel(input(call, memory));

    // Assert
    expect(sent).toHaveLength(1);
    expect(again.report).toBeUndefined();
    expect(again.labels.filter((l) => l.rule === 'model').map((l) => l.label)).toEqual(['keep', 'keep', 'keep']);
  });

  it('should fall back to the local labels when the classifier does not answer in time', async () => {
    // Arrange: a call that never resolves and ignores its signal.
    const call: ClassifierCall = () => new Promise(() => undefined);
    const { labels: local } = fixture();

    // Act
    const { labels, report } = await labelByModel(input(call, new Map(), 20));

    // Assert
    expect(labels).toEqual(local);
    expect(report).toMatchObject({ outcome: 'timeout', chunks: 3, scored: 0 });
  });

  it('should abort the call it gave up on', async () => {
    // Arrange
    let aborted = false;
    const call: ClassifierCall = (_request, signal) => new Promise((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve(undefined))));

    // Act
    await labelByModel(input(call, new Map(), 20));

    // Assert
    expect(aborted).toBe(true);
  });

  type Reply = () => { status: number; body: string } | undefined;
  it.each([
    ['an error status', (() => ({ status: 529, body: '{"type":"error"}' })) as Reply, 'failed', 529],
    ['no response', (() => undefined) as Reply, 'failed', undefined],
    ['a body that is not a Messages response', (() => ({ status: 200, body: 'oops' })) as Reply, 'unreadable', 200],
  ])('should keep the local labels on %s', async (_case, reply, outcome, status) => {
    // Arrange
    const { call } = scripted(reply);
    const { labels: local } = fixture();

    // Act
    const { labels, report } = await labelByModel(input(call));

    // Assert
    expect(labels).toEqual(local);
    expect(report?.outcome).toBe(outcome);
    expect(report?.status).toBe(status);
  });

  it('should make no call when every block was decided by a rule', async () => {
    // Arrange
    const { call, sent } = scripted(() => ({ status: 200, body: answer({}) }));
    const { s } = fixture();
    const only = s.plan.slice(0, 2);
    const labels = labelBlocks({ body: s.body, index: s.index, candidates: only, sha256 });

    // Act
    const result = await labelByModel({ ...input(call), added: only, labels });

    // Assert
    expect(sent).toHaveLength(0);
    expect(result).toEqual({ labels });
  });
});
