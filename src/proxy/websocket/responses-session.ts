/**
 * What one Responses WebSocket remembers between its `response.create` messages, and how each
 * message becomes the body of a streamed `POST …/responses` (docs/openai.md "WebSockets").
 *
 * Over the socket Codex sends a turn's new items only, with `previous_response_id` naming the
 * response last completed on it; the API would keep the rest in memory. ctxshed can keep stubs in
 * place only in a whole input, so it keeps, per socket, the last request's whole input and the
 * output items of its completed response, and sends previous input + those items + the new input,
 * without `previous_response_id`: the transcript Codex's HTTP transport sends for the same turn.
 * A `previous_response_id` naming anything else is forwarded as sent, for the upstream to answer.
 */

/** A `response.create` message, planned. */
export type CreatePlan =
  /** Send `body` over HTTP; `input` is the whole input it carries. `foreign` when its previous_response_id is not this socket's. */
  | { readonly kind: 'forward'; readonly body: Buffer; readonly input: readonly unknown[] | undefined; readonly foreign: boolean }
  /** `generate: false`: a warm-up with nothing to generate, answered by ctxshed with an empty response. */
  | { readonly kind: 'warmup'; readonly input: readonly unknown[] }
  /** Not a message ctxshed can relay: answered with an `error` event. */
  | { readonly kind: 'invalid'; readonly code: string; readonly message: string };

/** The response last completed on the socket, and the whole input of the request that made it. */
interface Completed {
  readonly id: string;
  readonly input: readonly unknown[];
  readonly output: readonly unknown[];
}

/** The client event ctxshed relays; any other (`response.append`, `response.steer`, ...) is answered with an error. */
export const CREATE_EVENT = 'response.create';

/** One socket's memory. */
export class ResponsesSession {
  private last: Completed | undefined;

  /** How to serve one client message (its UTF-8 text). */
  plan(text: string): CreatePlan {
    const message = parseObject(text);
    if (message === undefined) return { kind: 'invalid', code: 'invalid_json', message: 'The message is not a JSON object.' };
    if (message['type'] !== CREATE_EVENT) {
      return { kind: 'invalid', code: 'unsupported_event', message: `ctxshed relays ${CREATE_EVENT} only, not ${JSON.stringify(message['type'])}.` };
    }
    const { type: _type, ...fields } = message;
    const previous = fields['previous_response_id'];
    const input = fields['input'];
    const ours = typeof previous === 'string' && previous === this.last?.id && Array.isArray(input);
    if (ours && this.last !== undefined) {
      delete fields['previous_response_id'];
      // Assigned in place: the key keeps its place, so the body reads as the client's HTTP one does.
      fields['input'] = [...this.last.input, ...this.last.output, ...(input as unknown[])];
    }
    const whole = previous === undefined || previous === null || ours ? wholeInput(fields['input']) : undefined;
    if (fields['generate'] === false && whole !== undefined) return { kind: 'warmup', input: whole };
    // The socket's events are always streamed (the reference: `stream` is implicit over the WebSocket).
    if (fields['stream'] !== true) fields['stream'] = true;
    const foreign = typeof previous === 'string' && !ours;
    return { kind: 'forward', body: Buffer.from(JSON.stringify(fields), 'utf8'), input: whole, foreign };
  }

  /** A response completed: the next message may name it. `input` is the whole input of its request. */
  completed(id: string, input: readonly unknown[], output: readonly unknown[]): void {
    this.last = { id, input, output };
  }

  /** The id of the response last completed on the socket, if any. */
  get lastId(): string | undefined {
    return this.last?.id;
  }
}

/** The input as a list of items to remember: an array as it is, none as empty; a lone prompt (a string) is not remembered, so a message naming its response is forwarded as sent. */
function wholeInput(input: unknown): readonly unknown[] | undefined {
  if (Array.isArray(input)) return input;
  if (input === undefined) return [];
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
