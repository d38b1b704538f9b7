/**
 * The answer to a warm-up (`response.create` with `generate: false`, which Codex 0.171.0 sends
 * first on each socket, with no input): a response that generates nothing, made by ctxshed, as the
 * API's would be: `response.created`, then `response.completed` with no output and no tokens. The
 * HTTP API has no warm-up to forward it to, and the next message names this response's id.
 */
import { randomBytes } from 'node:crypto';

/** The id and the events (each one frame's text) of a warm-up's answer. */
export function warmupEvents(message: Buffer, now: Date): { id: string; events: string[] } {
  const id = `resp_ctxshed_warmup_${randomBytes(12).toString('hex')}`;
  const head = { id, object: 'response', created_at: Math.floor(now.getTime() / 1000), model: modelOf(message) };
  const usage = {
    input_tokens: 0,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 0,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 0,
  };
  const events = [
    { type: 'response.created', response: { ...head, status: 'in_progress', output: [] }, sequence_number: 0 },
    { type: 'response.completed', response: { ...head, status: 'completed', output: [], usage }, sequence_number: 1 },
  ];
  return { id, events: events.map((e) => JSON.stringify(e)) };
}

function modelOf(message: Buffer): string | null {
  try {
    const value = (JSON.parse(message.toString('utf8')) as Record<string, unknown>)['model'];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
