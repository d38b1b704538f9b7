/**
 * The head of a streamed Responses response (docs/openai.md, "A streamed refusal"): the API may
 * refuse a request inside a 200 stream, `response.created` and `response.in_progress` first, then
 * `response.failed` whose `response.error.code` is `context_length_exceeded`. The proxy holds the
 * stream's head until the first event after those two, and asks here what it is. Pure.
 */

/** Events that come before the API has decided: the head is held through them. */
const HEAD_EVENTS = new Set(['response.created', 'response.in_progress']);

/** What the head held so far says: wait for more, relay it (the stream goes on), or a failure. */
export type StreamHeadDecision = 'wait' | 'relay' | 'failed';

/**
 * Decides on the complete events in `text` (the stream from its first byte). `failed` when the
 * first event after the head events is `response.failed`; `relay` for any other event, or for
 * anything that is not an SSE event this can read.
 */
export function decideStreamHead(text: string): StreamHeadDecision {
  for (const event of completeEvents(text)) {
    const type = eventType(event);
    if (type !== undefined && HEAD_EVENTS.has(type)) continue;
    return type === 'response.failed' ? 'failed' : 'relay';
  }
  return 'wait';
}

/**
 * The `{"error": ...}` body of a `response.failed` event in `text`, in the shape of the API's 400,
 * so the dialect's reading of a refusal (`tooLong`) reads it; undefined when there is none.
 */
export function streamedFailureBody(text: string): string | undefined {
  for (const event of completeEvents(text)) {
    if (eventType(event) !== 'response.failed') continue;
    const data = eventData(event);
    const response = isRecord(data) ? data['response'] : undefined;
    const error = isRecord(response) ? response['error'] : undefined;
    return isRecord(error) ? JSON.stringify({ error }) : undefined;
  }
  return undefined;
}

/** The events ended by a blank line, each as its lines. */
function completeEvents(text: string): string[][] {
  const blocks = text.split(/\r?\n\r?\n/);
  blocks.pop(); // the last block has no blank line after it yet
  return blocks.map((b) => b.split(/\r?\n/)).filter((lines) => lines.some((l) => l !== '' && !l.startsWith(':')));
}

/** The event's `event:` name, else its data's `type`. */
function eventType(lines: readonly string[]): string | undefined {
  const named = lines.find((l) => l.startsWith('event:'));
  if (named !== undefined) return named.slice('event:'.length).trim();
  const data = eventData(lines);
  return isRecord(data) && typeof data['type'] === 'string' ? data['type'] : undefined;
}

function eventData(lines: readonly string[]): unknown {
  const data = lines
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice('data:'.length).replace(/^ /, ''))
    .join('\n');
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
