/**
 * What the Codex hop (upgrade-hop.ts) reads off a Responses WebSocket it passes through: each
 * `response.create` the client sends, as the whole body Codex's HTTP transport would have sent
 * for it (the previous request's input, the output items of the response it names, then its new
 * input; no `type`, no `previous_response_id`), so the scenario can set it beside what the
 * upstream got. Warm-ups (`generate: false`) never reach the upstream and are counted apart.
 * This is the test's own reading of docs/openai.md "WebSockets", written apart from ctxshed's.
 */
import { FrameParser } from '../../src/proxy/websocket/frame-parser.js';

/** One client message, made whole. */
export interface TappedCreate {
  readonly body: Buffer;
  /** Its `previous_response_id` named a response this socket had not completed. */
  readonly foreign: boolean;
}

/** Taps one socket: `fromClient` and `fromServer` take the bytes each way, after the handshake. */
export class WebSocketTap {
  readonly warmups: number[] = [];
  readonly #client = new FrameParser({ masked: true });
  readonly #server = new FrameParser({ masked: false });
  #responses = new Map<string, { input: unknown[]; output: unknown[] }>();
  #pending: { input: unknown[]; output: unknown[] } | undefined;

  constructor(private readonly onCreate: (create: TappedCreate) => void) {}

  fromClient(bytes: Buffer): void {
    for (const event of this.#client.push(bytes)) {
      if (event.kind !== 'message' || event.binary) continue;
      const message = JSON.parse(event.data.toString('utf8')) as Record<string, unknown>;
      if (message['type'] !== 'response.create') continue;
      const { type: _type, ...fields } = message;
      const previous = typeof fields['previous_response_id'] === 'string' ? this.#responses.get(fields['previous_response_id']) : undefined;
      const fresh = Array.isArray(fields['input']) ? (fields['input'] as unknown[]) : [];
      if (previous !== undefined) {
        delete fields['previous_response_id'];
        fields['input'] = [...previous.input, ...previous.output, ...fresh];
      }
      this.#pending = { input: fields['input'] as unknown[], output: [] };
      if (fields['generate'] === false) {
        this.warmups.push(1);
        continue;
      }
      const foreign = typeof fields['previous_response_id'] === 'string';
      this.onCreate({ body: Buffer.from(JSON.stringify(fields)), foreign });
    }
  }

  fromServer(bytes: Buffer): void {
    for (const event of this.#server.push(bytes)) {
      if (event.kind !== 'message' || this.#pending === undefined) continue;
      const e = JSON.parse(event.data.toString('utf8')) as { type?: string; output_index?: number; item?: unknown; response?: { id?: string } };
      if (e.type === 'response.output_item.done' && typeof e.output_index === 'number') this.#pending.output[e.output_index] = e.item;
      if (e.type === 'response.completed' && typeof e.response?.id === 'string') this.#responses.set(e.response.id, this.#pending);
    }
  }
}
