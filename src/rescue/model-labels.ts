/**
 * `--labels model` (docs/labels.md "The model classifier"): the blocks no local rule decided are
 * sent, redacted, to the conversation's own upstream with its own auth headers, and labelled by
 * the scores that come back. The call has a time limit; past it, or on any failure, the local
 * labels stand. Scores are remembered per block, so one block is asked about once.
 */
import {
  applyClassifierScores,
  buildClassifierRequest,
  currentTask,
  parseClassifierResponse,
  selectClassifierChunks,
  type BlockLabel,
  type LabelScores,
  type PlannedBlock,
  type TranscriptIndex,
} from '../core/index.js';
import { priceOf } from '../core/price-table.js';
import type { ClassifierCall, ClassifierReport, EngineRequest } from './engine-types.js';

/** The request headers the classifier call carries: the conversation's credentials and API version. */
const AUTH_HEADERS = ['x-api-key', 'authorization', 'anthropic-version', 'anthropic-beta'];

/** What the model's labelling needs. */
export interface ModelLabelInput {
  readonly call: ClassifierCall;
  /** Scores already given, by `<key>:<tool_use_id>:<sha256>`. */
  readonly memory: Map<string, LabelScores>;
  readonly key: string;
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly added: readonly PlannedBlock[];
  /** The local labels of `added`, in its order. */
  readonly labels: readonly BlockLabel[];
  readonly headers: EngineRequest['headers'];
  readonly model: string;
  readonly timeoutMs: number;
}

/** The labels after the classifier (the local ones where it did not answer), and what the call did. */
export async function labelByModel(input: ModelLabelInput): Promise<{ labels: BlockLabel[]; report?: ClassifierReport }> {
  const shaOf = new Map(input.added.map((b) => [b.toolUseId, b.sha256]));
  const memoKey = (id: string): string => `${input.key}:${id}:${shaOf.get(id) ?? ''}`;
  const known = new Map<string, LabelScores>();
  const ask = selectClassifierChunks(input.added, input.labels).filter((chunk) => {
    const remembered = input.memory.get(memoKey(chunk.id));
    if (remembered !== undefined) known.set(chunk.id, remembered);
    return remembered === undefined;
  });
  if (ask.length === 0) return { labels: applyClassifierScores(input.labels, known) };
  const started = performance.now();
  const body = buildClassifierRequest({ model: input.model, task: currentTask(input.body, input.index), chunks: ask });
  const answer = await callWithin(input.call, { body, headers: authHeaders(input.headers) }, input.timeoutMs);
  const base = { model: input.model, ms: Math.round(performance.now() - started), chunks: ask.length, scored: 0 };
  const local = (outcome: ClassifierReport['outcome'], status?: number): { labels: BlockLabel[]; report: ClassifierReport } => ({
    labels: applyClassifierScores(input.labels, known),
    report: { ...base, outcome, ...(status === undefined ? {} : { status }) },
  });
  if (answer === 'timeout') return local('timeout');
  if (answer === undefined) return local('failed');
  if (answer.status !== 200) return local('failed', answer.status);
  const parsed = parseClassifierResponse(answer.body);
  if (parsed === undefined) return local('unreadable', answer.status);
  let scored = 0;
  for (const chunk of ask) {
    const scores = parsed.scores.get(chunk.id);
    if (scores === undefined) continue;
    scored += 1;
    known.set(chunk.id, scores);
    input.memory.set(memoKey(chunk.id), scores);
  }
  const usage = parsed.usage === undefined ? undefined : { input: parsed.usage.inputTokens, output: parsed.usage.outputTokens };
  const price = priceOf(input.model);
  // Prices are per million tokens; kept to the micro-dollar.
  const costUsd = usage === undefined || price === undefined ? undefined : Math.round(usage.input * price.input + usage.output * price.output) / 1e6;
  return {
    labels: applyClassifierScores(input.labels, known),
    report: {
      ...base,
      outcome: 'scored',
      status: answer.status,
      scored,
      ...(usage === undefined ? {} : { usage }),
      ...(costUsd === undefined ? {} : { costUsd }),
    },
  };
}

/** The call's answer, `undefined` when it failed, or `timeout` once `ms` have passed (the call is then aborted). */
async function callWithin(call: ClassifierCall, request: Parameters<ClassifierCall>[0], ms: number): Promise<Awaited<ReturnType<ClassifierCall>> | 'timeout'> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // Raced, not only signalled: a call that ignores its signal still cannot hold the request.
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`the classifier took over ${ms} ms`));
      resolve('timeout');
    }, ms);
  });
  try {
    return await Promise.race([call(request, controller.signal).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function authHeaders(headers: EngineRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of AUTH_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
