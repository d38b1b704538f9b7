/**
 * A scripted client that resends its transcript like Claude Code does: every turn it appends the
 * assistant reply and a user message with the tool results, moves the one message-level
 * `cache_control` marker to the new last block, and turns a lone text block into a plain string
 * (REAL-CLIENT.md, "What the client sends").
 */
import http from 'node:http';

type Block = Record<string, unknown>;
interface Message {
  role: string;
  content: string | Block[];
}

const CACHE = { type: 'ephemeral' } as const;

/** A deterministic tool output of about `bytes` bytes, with some non-ASCII in it. */
export function toolOutput(turn: number, bytes: number): string {
  const line = `${String(turn).padStart(4, '0')} | const café = "naïve — ✓"; // résumé ${'x'.repeat(20)}\n`;
  return line.repeat(Math.max(1, Math.ceil(bytes / Buffer.byteLength(line)))).slice(0, bytes);
}

export interface ScriptedClientOptions {
  readonly model?: string;
  readonly prompt?: string;
  /** Size of each tool result's text. */
  readonly toolResultBytes?: (turn: number) => number;
  readonly headers?: Record<string, string>;
  readonly stream?: boolean;
}

/** One conversation held by the scripted client. */
export class ScriptedClient {
  readonly messages: Message[];
  turn = 0;
  /** Every body this client sent, byte for byte. */
  readonly sent: Buffer[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly options: ScriptedClientOptions = {},
  ) {
    this.messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>Today is a day.</system-reminder>' },
          { type: 'text', text: options.prompt ?? 'Please read the project files.', cache_control: CACHE },
        ],
      },
    ];
  }

  /** The request body for the transcript as it is now. */
  body(): Buffer {
    return Buffer.from(
      JSON.stringify({
        model: this.options.model ?? 'claude-sonnet-4-5',
        messages: this.messages,
        system: [
          { type: 'text', text: 'x-billing: 1' },
          { type: 'text', text: 'You are a coding agent.', cache_control: CACHE },
          { type: 'text', text: 'Use tools. '.repeat(200), cache_control: CACHE },
        ],
        tools: [{ name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
        metadata: { user_id: 'test' },
        max_tokens: 32000,
        stream: this.options.stream ?? false,
      }),
    );
  }

  /** Sends the transcript; returns the response status, headers and raw bytes. */
  async send(path = '/v1/messages?beta=true'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const body = this.body();
    this.sent.push(body);
    return postRaw(this.baseUrl, path, body, { 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01', ...this.options.headers });
  }

  /** Takes the assistant reply and answers each tool_use with a tool result, as the client would. */
  answer(assistant: { content: Block[] }): void {
    this.turn++;
    this.dropLastMarker();
    this.messages.push({ role: 'assistant', content: assistant.content });
    const uses = assistant.content.filter((b) => b['type'] === 'tool_use');
    const size = this.options.toolResultBytes?.(this.turn) ?? 3000;
    const results: Block[] = uses.map((u) => ({ type: 'tool_result', tool_use_id: u['id'], content: toolOutput(this.turn, size) }));
    if (results.length === 0) results.push({ type: 'text', text: `turn ${this.turn}: go on` });
    results[results.length - 1]!['cache_control'] = CACHE;
    this.messages.push({ role: 'user', content: results });
  }

  /** One whole turn: send, parse a JSON reply, answer it. */
  async turnOnce(): Promise<{ status: number; body: Buffer }> {
    const res = await this.send();
    if (res.status === 200) this.answer(JSON.parse(res.body.toString('utf8')) as { content: Block[] });
    return res;
  }

  private dropLastMarker(): void {
    const last = this.messages[this.messages.length - 1];
    if (last === undefined || typeof last.content === 'string') return;
    const block = last.content[last.content.length - 1];
    if (block !== undefined) delete block['cache_control'];
    const only = last.content[0];
    if (last.content.length === 1 && only !== undefined && only['type'] === 'text' && Object.keys(only).length === 2) {
      last.content = only['text'] as string;
    }
  }
}

/** POSTs raw bytes and collects the raw response bytes (no decoding). */
export function postRaw(
  baseUrl: string,
  path: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
