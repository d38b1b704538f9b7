/**
 * A scripted OpenAI client for end-to-end tests: it keeps a transcript the way Codex does
 * (test/fixtures/real-openai/README.md: every request resends all of it, items only appended, a
 * session header and prompt_cache_key naming the thread) and runs one tool per model call, whose
 * output is a deterministic text of a given size. Speaks the Responses API or chat; the Responses
 * API over HTTP, or over its WebSocket as Codex 0.171.0 does (test/fixtures/real-openai-websocket):
 * one socket, a warm-up (`generate: false`), then each turn's new items only, with
 * `previous_response_id` naming the last response. Its `sent` holds, either way, the whole body
 * the HTTP transport sends for the turn.
 */
import { request } from 'node:http';
import { openWebSocket, readAnswer, type TestSocket } from './websocket-client.js';

export { readAnswer } from './websocket-client.js';

/** One exchange: what was sent, and the status that came back. */
export interface Exchange {
  readonly status: number;
  readonly body: string;
}

const THREAD = '01a22bf7-afd0-73a1-9543-e4b447847ea1';

/** A transcript and the way to send it. */
export class OpenAiScriptedClient {
  /** Every request body sent, in order. */
  readonly sent: Buffer[] = [];
  readonly #items: unknown[];
  #turn = 0;
  #socket: TestSocket | undefined;
  /** The id of the response last completed on the socket, and how many items the upstream then had. */
  #last: { id: string; known: number } | undefined;

  constructor(
    readonly baseUrl: string,
    readonly api: 'responses' | 'chat',
    readonly outputBytes: (turn: number) => number = () => 3000,
    readonly transport: 'http' | 'websocket' = 'http',
  ) {
    this.#items =
      api === 'responses'
        ? [
            { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around the project.' }] },
          ]
        : [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: 'Look around the project.' },
          ];
  }

  /** Sends the transcript once, appends what came back and the tool outputs it asked for. */
  async turnOnce(): Promise<Exchange> {
    const body =
      this.api === 'responses'
        ? { model: 'gpt-test', stream: true, input: this.#items, store: false, prompt_cache_key: THREAD, client_metadata: { turn: this.#turn } }
        : { model: 'gpt-test', messages: this.#items, stream: true, stream_options: { include_usage: true }, prompt_cache_key: THREAD };
    const bytes = Buffer.from(JSON.stringify(body));
    this.sent.push(bytes);
    const path = this.api === 'responses' ? '/v1/responses' : '/v1/chat/completions';
    const sentItems = this.#items.length;
    const reply = this.transport === 'websocket' ? await this.#overSocket() : await post(`${this.baseUrl}${path}`, bytes);
    if (reply.status === 200) this.#absorb(reply.body, sentItems);
    this.#turn += 1;
    return reply;
  }

  /**
   * One turn over the socket: the new items since the last completed response, which it names.
   * The reply is the events as an SSE body, and 200 when it completed (else the `error` event's
   * status, or 502 when the socket closed first).
   */
  async #overSocket(): Promise<Exchange> {
    const socket = await this.#openSocket();
    const { id, known } = this.#last ?? { id: undefined, known: 0 };
    const metadata = { turn: this.#turn };
    socket.send(
      JSON.stringify({
        type: 'response.create',
        model: 'gpt-test',
        stream: true,
        ...(id === undefined ? {} : { previous_response_id: id }),
        input: this.#items.slice(known),
        store: false,
        prompt_cache_key: THREAD,
        client_metadata: metadata,
      }),
    );
    return readAnswer(socket);
  }

  async #openSocket(): Promise<TestSocket> {
    if (this.#socket !== undefined) return this.#socket;
    const socket = await openWebSocket(`${this.baseUrl}/v1/responses`, { 'session-id': THREAD, authorization: 'Bearer sk-test-000' });
    this.#socket = socket;
    socket.send(
      JSON.stringify({ type: 'response.create', model: 'gpt-test', stream: true, input: [], store: false, prompt_cache_key: THREAD, generate: false }),
    );
    const warm = await readAnswer(socket);
    const done = parseEvents(warm.body).find((e) => e['type'] === 'response.completed') as { response: { id: string } } | undefined;
    if (done !== undefined) this.#last = { id: done.response.id, known: 0 };
    return socket;
  }

  /** The socket, once open (a test sends its own messages on it). */
  get socket(): TestSocket | undefined {
    return this.#socket;
  }

  /** Closes the socket, if one is open. */
  async closeSocket(): Promise<void> {
    if (this.#socket === undefined) return;
    this.#socket.close();
    await this.#socket.closed;
    this.#socket = undefined;
  }

  /**
   * Compacts remotely as Codex does (docs/openai.md, "Remote compaction"): `POST /responses/compact`
   * with the transcript, then the transcript is the developer message and the compacted output
   * (the user messages, then the `compaction` item), which later requests send back.
   */
  async compactRemotely(): Promise<Exchange> {
    const bytes = Buffer.from(JSON.stringify({ model: 'gpt-test', input: this.#items, instructions: 'You are a coding agent.', parallel_tool_calls: false }));
    this.sent.push(bytes);
    const reply = await post(`${this.baseUrl}/v1/responses/compact`, bytes);
    if (reply.status === 200) this.#replaceWith((JSON.parse(reply.body) as { output: unknown[] }).output);
    return reply;
  }

  /**
   * Compacts with a streamed request whose last input item is `{"type":"compaction_trigger"}`: its
   * one `compaction` output item follows the developer and user messages, as after `compactRemotely`.
   */
  async triggerCompaction(): Promise<Exchange> {
    const body = { model: 'gpt-test', stream: true, input: [...this.#items, { type: 'compaction_trigger' }], store: false, prompt_cache_key: THREAD };
    const bytes = Buffer.from(JSON.stringify(body));
    this.sent.push(bytes);
    const reply = await post(`${this.baseUrl}/v1/responses`, bytes);
    if (reply.status === 200) {
      const done = parseEvents(reply.body).find((e) => e['type'] === 'response.completed') as { response: { output: unknown[] } } | undefined;
      const users = this.#items.filter((i) => (i as Record<string, unknown>)['role'] === 'user');
      this.#replaceWith([...users, ...(done?.response.output ?? [])]);
    }
    return reply;
  }

  /** The transcript as it is now. */
  get items(): readonly unknown[] {
    return this.#items;
  }

  #replaceWith(compacted: readonly unknown[]): void {
    const developer = this.#items[0];
    this.#items.length = 0;
    this.#items.push(developer, ...compacted);
  }

  #absorb(stream: string, sentItems: number): void {
    const events = parseEvents(stream);
    if (this.api === 'responses') {
      const done = events.find((e) => e['type'] === 'response.completed') as { response: { id: string; output: Array<Record<string, unknown>> } } | undefined;
      // The upstream now has the input and the output items: with one call a response (as this
      // client's models answer), the items appended after the call are the next turn's new input.
      if (done !== undefined) this.#last = { id: done.response.id, known: sentItems + done.response.output.length };
      for (const item of done?.response.output ?? []) {
        this.#items.push(item);
        if (item['type'] === 'function_call')
          this.#items.push({ type: 'function_call_output', call_id: item['call_id'], output: toolText(this.#turn, this.outputBytes(this.#turn)) });
      }
      return;
    }
    const first = events[0] as { choices: Array<{ delta: Record<string, unknown> }> } | undefined;
    const message = first?.choices[0]?.delta;
    if (message === undefined) return;
    this.#items.push(message);
    const calls = (message['tool_calls'] ?? []) as Array<{ id: string }>;
    for (const call of calls) this.#items.push({ role: 'tool', tool_call_id: call.id, content: toolText(this.#turn, this.outputBytes(this.#turn)) });
  }
}

function parseEvents(stream: string): Record<string, unknown>[] {
  return stream
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

/** The session header Codex sends with every request of a thread. */
export const CLIENT_SESSION = THREAD;

/** Numbered lines of about `bytes` bytes, different for each turn. */
export function toolText(turn: number, bytes: number): string {
  let out = '';
  for (let n = 1; out.length < bytes; n++) out += `turn ${turn} line ${n}: the quick brown fox jumps over the lazy dog é ✓\n`;
  return out;
}

function post(url: string, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'session-id': THREAD, authorization: 'Bearer sk-test-000' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
