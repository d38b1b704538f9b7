/**
 * The optional model classifier's request (docs/labels.md "The model classifier"): the seed's
 * three labels in full, the task, and per chunk a header and a redacted head of at most
 * CHUNK_HEAD_MAX_CHARS characters. A Messages API body for the conversation's own upstream;
 * the call itself is made at the edge.
 */
import type { PlannedBlock } from '../plan-elision.js';
import type { BlockLabel } from './label-types.js';
import { truncateChars } from './main-input.js';
import { MAX_PLACEHOLDERS, redactText } from './redact-text.js';

/**
 * The labels, named in full: shortened to `keep` and `drop`, the seed's classifier scored an
 * install log 0 to drop where the full names gave 0.9.
 */
export const CLASSIFIER_LABELS = {
  keep: 'keep in context, the current task needs the exact text',
  drop: 'drop, it is noise or already superseded',
  pointer: 'replace with a pointer, it can be fetched again if needed',
} as const;

/** The most of a chunk's text the classifier sees, in characters. */
export const CHUNK_HEAD_MAX_CHARS = 2000;

/**
 * Redaction runs over this much of the text before the head is cut, so a key that starts
 * before the cut is found whole, not missed as a fragment.
 */
const REDACT_WINDOW_CHARS = 2 * CHUNK_HEAD_MAX_CHARS;

/** Output tokens asked for per chunk (an id and three scores) and for the answer's frame. */
const TOKENS_PER_CHUNK = 64;
const TOKENS_BASE = 128;

/** One chunk as the classifier sees it. */
export interface ClassifierChunk {
  /** The block's tool_use_id: the answer names it. */
  readonly id: string;
  /** `Tool#ordinal` and the redacted main input: what it was and how it could be fetched again. */
  readonly header: string;
  /** The start of the text, redacted, at most CHUNK_HEAD_MAX_CHARS characters. */
  readonly head: string;
}

const UTF8 = new TextDecoder('utf-8');

/**
 * The chunks that may be sent: blocks no local rule decided (`default`), whose head holds at
 * most MAX_PLACEHOLDERS placeholders once redacted. Every other block keeps its local label
 * and never leaves the machine.
 */
export function selectClassifierChunks(planned: readonly PlannedBlock[], labels: readonly BlockLabel[]): ClassifierChunk[] {
  const texts = new Map(planned.map((b) => [b.ordinal, b.text]));
  const chunks: ClassifierChunk[] = [];
  for (const label of labels) {
    const text = texts.get(label.ordinal);
    if (label.rule !== 'default' || text === undefined) continue;
    const window = cutAt(UTF8.decode(text), REDACT_WINDOW_CHARS);
    const redacted = redactText(window);
    if (redacted.holdsSecret || redacted.placeholders > MAX_PLACEHOLDERS) continue;
    const header = label.input === '' ? `${label.tool}#${label.ordinal}` : `${label.tool}#${label.ordinal} ${label.input}`;
    chunks.push({ id: label.toolUseId, header, head: truncateChars(redacted.text, CHUNK_HEAD_MAX_CHARS) });
  }
  return chunks;
}

/** What the request is built from. */
export interface ClassifierRequestInput {
  /** The model to ask (the conversation's own, unless the edge picks another). */
  readonly model: string;
  /** The current task (currentTask()), already redacted. */
  readonly task: string;
  readonly chunks: readonly ClassifierChunk[];
}

/** The Messages API request body asking for the three labels' scores per chunk, as JSON text. */
export function buildClassifierRequest(input: ClassifierRequestInput): string {
  const labels = [CLASSIFIER_LABELS.keep, CLASSIFIER_LABELS.drop, CLASSIFIER_LABELS.pointer];
  const question = {
    labels,
    task: input.task,
    instructions:
      `The current task is: ${input.task === '' ? '(not stated)' : input.task}. Judge each chunk only by whether its exact text is needed to finish it. ` +
      'Score every label from 0 to 1 for every chunk, each label on its own.',
    chunks: input.chunks,
  };
  const answerShape = `{"results":[{"id":"<chunk id>","scores":{${labels.map((l) => `${JSON.stringify(l)}:<0..1>`).join(',')}}}]}`;
  return JSON.stringify({
    model: input.model,
    max_tokens: TOKENS_BASE + TOKENS_PER_CHUNK * input.chunks.length,
    temperature: 0,
    system:
      "You label chunks of a coding agent's context for ctxshed, which moves old tool results out of the context window. " +
      `Answer with one JSON object and nothing else, shaped ${answerShape}, one result per chunk.`,
    messages: [{ role: 'user', content: JSON.stringify(question) }],
  });
}

/** The text cut to at most `max` UTF-16 units, never inside a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
