/**
 * The demo's scripted client: one conversation that resends its whole transcript every turn the
 * way Claude Code does (REAL-CLIENT.md, "What the client sends"): the same key order and system
 * blocks, the one message-level `cache_control` moved to the new last block, a lone text prompt
 * turned into a plain string once it is no longer last. It runs the tools the model asks for.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { commandOutput, DEMO_PROJECT_ROOT, fileContents } from './demo-workspace.js';
import { DEMO_MODEL } from './scripted-model.js';
import { decodeSse, type Block, type StreamedMessage } from '../scripted/sse-decode.js';
import { errorText } from '../errors.js';

interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}

const CACHE_CONTROL = { type: 'ephemeral' } as const;
const SYSTEM = [
  { type: 'text', text: 'x-anthropic-billing-header: cc_version=demo; cc_entrypoint=ctxshed-demo;' },
  { type: 'text', text: 'You are a scripted coding agent run by `ctxshed demo`.', cache_control: CACHE_CONTROL },
  { type: 'text', text: `You help with the project in ${DEMO_PROJECT_ROOT}. Use the Read and Bash tools. `.repeat(24), cache_control: CACHE_CONTROL },
];
const TOOLS = [
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem. The file_path parameter must be an absolute path.',
    input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' } }, required: ['file_path'] },
  },
  {
    name: 'Bash',
    description: 'Executes a given bash command and returns its output.',
    input_schema: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] },
  },
];

/** One exchange: the bytes the client sent and the reply it read. */
export interface ClientTurn {
  readonly sent: Buffer;
  readonly status: number;
  readonly reply: StreamedMessage | undefined;
}

/** The scripted client's one conversation, sent to `baseUrl` (the proxy). */
export class ScriptedClient {
  readonly #messages: Message[];
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  #turn = 0;

  /** `runId` goes into the first prompt, so each demo run is a conversation of its own. */
  constructor(
    private readonly baseUrl: string,
    runId: string,
  ) {
    const prompt = `Have a look around ${DEMO_PROJECT_ROOT} and run its tests. (ctxshed demo run ${runId})`;
    this.#messages = [{ role: 'user', content: [{ type: 'text', text: prompt, cache_control: CACHE_CONTROL }] }];
  }

  /** The request body for the transcript as it is now, in the client's key order. */
  body(): Buffer {
    return Buffer.from(
      JSON.stringify({
        model: DEMO_MODEL,
        messages: this.#messages,
        system: SYSTEM,
        tools: TOOLS,
        metadata: { user_id: JSON.stringify({ device_id: 'demo', account_uuid: '', session_id: 'demo' }) },
        max_tokens: 32000,
        stream: true,
      }),
      'utf8',
    );
  }

  /** Sends the transcript, reads the streamed reply and, on success, answers its tool calls. */
  async turn(): Promise<ClientTurn> {
    this.#turn += 1;
    const sent = this.body();
    const res = await this.#post('/v1/messages?beta=true', sent);
    if (res.status !== 200) return { sent, status: res.status, reply: undefined };
    const reply = decodeSse(res.body.toString('utf8'));
    await this.#answer(reply);
    return { sent, status: res.status, reply };
  }

  /** Closes the client's keep-alive connection. */
  close(): void {
    this.#agent.destroy();
  }

  async #answer(reply: StreamedMessage): Promise<void> {
    this.#moveBreakpoint();
    this.#messages.push({ role: 'assistant', content: reply.content });
    const results: Block[] = [];
    for (const use of reply.content.filter((b) => b['type'] === 'tool_use')) {
      results.push({ type: 'tool_result', tool_use_id: use['id'], content: await this.#runTool(use) });
    }
    if (results.length === 0) results.push({ type: 'text', text: 'Go on.' });
    results[results.length - 1]!['cache_control'] = CACHE_CONTROL;
    this.#messages.push({ role: 'user', content: results });
  }

  /** The one change the client makes to earlier bytes: at the old breakpoint, and nowhere else. */
  #moveBreakpoint(): void {
    const last = this.#messages[this.#messages.length - 1];
    if (last === undefined || typeof last.content === 'string') return;
    const block = last.content[last.content.length - 1];
    if (block !== undefined) delete block['cache_control'];
    const only = last.content[0];
    if (last.content.length === 1 && only !== undefined && only['type'] === 'text' && Object.keys(only).length === 2) last.content = String(only['text']);
  }

  async #runTool(use: Block): Promise<string> {
    const input = (use['input'] ?? {}) as Record<string, unknown>;
    if (use['name'] === 'Bash') return commandOutput(String(input['command']), this.#turn);
    const file = String(input['file_path']);
    // The pretend project is generated; any other path is read from disk, like the real Read
    // tool (this is how an elided file named by a stub comes back).
    if (file.startsWith(`${DEMO_PROJECT_ROOT}/`)) return fileContents(file, this.#turn);
    return fs.readFile(file, 'utf8').catch((error: unknown) => `<tool_use_error>${errorText(error)}</tool_use_error>`);
  }

  #post(path: string, body: Buffer): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers = {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'x-api-key': 'sk-ant-demo-not-a-real-key',
        'anthropic-version': '2023-06-01',
        'x-app': 'cli',
      };
      const req = http.request(new URL(path, this.baseUrl), { method: 'POST', headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}
