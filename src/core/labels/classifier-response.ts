/**
 * The classifier's answer: its scores read from a Messages API response, the two thresholds,
 * and the labels they give. Anything unexpected in the answer leaves a chunk to the local
 * rules, never to a guess.
 */
import { CLASSIFIER_LABELS } from './classifier-request.js';
import type { BlockLabel, Label } from './label-types.js';

/** One chunk's scores, each label on its own scale 0..1. */
export interface LabelScores {
  readonly keep: number;
  readonly drop: number;
  readonly pointer: number;
}

/**
 * `drop` only at this score or above: a drop stub does not invite the model to read the block
 * back, so it is the move that costs most when it is wrong (the seed's irreversible one).
 */
export const DROP_MIN_SCORE = 0.9;
/** `pointer` at this score or above: it keeps the id, the checksum and the way back. */
export const POINTER_MIN_SCORE = 0.5;

/** The label the scores give, and its own score (what the ledger records); unsure keeps. */
export function decideFromScores(scores: LabelScores): { readonly label: Label; readonly score: number } {
  if (scores.drop >= DROP_MIN_SCORE) return { label: 'drop', score: scores.drop };
  if (scores.pointer >= POINTER_MIN_SCORE) return { label: 'pointer', score: scores.pointer };
  return { label: 'keep', score: scores.keep };
}

/** What the answer's usage says, for the wire log's cost of ctxshed's own call. */
export interface ClassifierUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The scores by chunk id, and the usage when the response reports one. */
export interface ClassifierAnswer {
  readonly scores: ReadonlyMap<string, LabelScores>;
  readonly usage?: ClassifierUsage;
}

const KEYS: ReadonlyArray<readonly [keyof LabelScores, readonly string[]]> = [
  ['keep', [CLASSIFIER_LABELS.keep, 'keep']],
  ['drop', [CLASSIFIER_LABELS.drop, 'drop']],
  ['pointer', [CLASSIFIER_LABELS.pointer, 'pointer']],
];

/**
 * Reads a Messages API response body (JSON text): the scores of each well-formed result in
 * the assistant's text. `undefined` when the body is not such a response; a result with a
 * missing or out-of-range score is left out (its chunk keeps its local label).
 */
export function parseClassifierResponse(body: string): ClassifierAnswer | undefined {
  const response = parseJson(body);
  if (!isObject(response) || !Array.isArray(response['content'])) return undefined;
  const text = response['content']
    .filter((block): block is Record<string, unknown> => isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => block['text'] as string)
    .join('');
  const answer = parseJson(outermostObject(text));
  const scores = new Map<string, LabelScores>();
  const results = isObject(answer) ? answer['results'] : undefined;
  if (Array.isArray(results)) {
    for (const result of results) {
      if (!isObject(result) || typeof result['id'] !== 'string' || scores.has(result['id'])) continue;
      const read = readScores(result['scores']);
      if (read !== undefined) scores.set(result['id'], read);
    }
  }
  const usage = readUsage(response['usage']);
  return usage === undefined ? { scores } : { scores, usage };
}

/** The labels with the classifier's decisions applied to the chunks it scored (rule `model`). */
export function applyClassifierScores(labels: readonly BlockLabel[], scores: ReadonlyMap<string, LabelScores>): BlockLabel[] {
  return labels.map((label) => {
    const s = label.rule === 'default' ? scores.get(label.toolUseId) : undefined;
    if (s === undefined) return label;
    const decided = decideFromScores(s);
    return { ...label, label: decided.label, rule: 'model', score: decided.score };
  });
}

function readScores(value: unknown): LabelScores | undefined {
  if (!isObject(value)) return undefined;
  const out: Partial<Record<keyof LabelScores, number>> = {};
  for (const [key, names] of KEYS) {
    const score = names.map((name) => value[name]).find((v) => v !== undefined);
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) return undefined;
    out[key] = score;
  }
  return out as LabelScores;
}

function readUsage(value: unknown): ClassifierUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value['input_tokens'];
  const output = value['output_tokens'];
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  return { inputTokens: input, outputTokens: output };
}

// The model may wrap its JSON in a code fence or a sentence: take the outermost braces.
function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start < 0 || end < start ? '' : text.slice(start, end + 1);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
