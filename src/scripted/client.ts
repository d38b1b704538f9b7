/**
 * The scripted client, shared by `ctxshed demo` and the tests: one conversation that resends its
 * whole transcript every turn the way Claude Code does (test/fixtures/real/README.md, "What the client
 * sends"): the body's keys in the client's order, three system blocks (a billing line, then two
 * with cache_control), the one message-level breakpoint on the last message (breakpoint.ts), and
 * a tool_result for every tool_use of the reply it got.
 */
import http from 'node:http';
import { markLastMessage } from './breakpoint.js';
import { postRaw, type RawResponse } from './post-raw.js';
import { decodeSse, type Block } from './sse-decode.js';
import { toolOutput } from './tool-output.js';

export type { Block } from './sse-decode.js';

/** A message as the client keeps it: the breakpoint is added only when it is sent last. */
export interface ClientMessage {
  readonly role: string;
  content: string | Block[];
}

/** Everything has a default: a small body the tests' turn counts are tuned to. */
export interface ScriptedClientOptions {
  readonly model?: string;
  /** The user's first prompt, after a reminder block. Ignored when `firstContent` is given. */
  readonly prompt?: string;
  /** The first user message's content, as the client keeps it. */
  readonly firstContent?: string | Block[];
  readonly system?: readonly Block[];
  readonly tools?: readonly Block[];
  /** `metadata.user_id` (the real client's is a JSON string of device, account and session ids). */
  readonly userId?: string;
  readonly maxTokens?: number;
  /** The body's `thinking` member (`{type: 'adaptive', display: 'omitted'}`, `block_binding` ...). Default: none. */
  readonly thinking?: Readonly<Record<string, unknown>>;
  readonly stream?: boolean;
  /** Headers over the defaults (a test API key and `anthropic-version`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Size of each default tool result, by turn. Default 3,000 bytes. */
  readonly toolResultBytes?: (turn: number) => number;
  /** The text of a tool call's tool_result. Default: `toolOutput(turn, toolResultBytes(turn))`. */
  readonly runTool?: (use: Block, turn: number) => string | Promise<string>;
  /** What the user says when a reply calls no tool. */
  readonly nextPrompt?: (turn: number) => string;
  /**
   * Compact when the API refuses a request as too long, as Claude Code 2.1.332 does in print mode
   * (`compact`); off by default: the turn just returns the refusal.
   */
  readonly compactOnRefusal?: boolean;
}

/** One exchange: the bytes sent, the response as it arrived, and the reply read from it (on a 200). */
export interface ClientTurn extends RawResponse {
  readonly sent: Buffer;
  readonly reply: { readonly content: Block[]; readonly stopReason: string | undefined } | undefined;
}

const CACHE_CONTROL = { type: 'ephemeral' } as const;
const DEFAULT_SYSTEM: readonly Block[] = [
  { type: 'text', text: 'x-billing: 1' },
  { type: 'text', text: 'You are a coding agent.', cache_control: CACHE_CONTROL },
  { type: 'text', text: 'Use tools. '.repeat(200), cache_control: CACHE_CONTROL },
];
const DEFAULT_TOOLS: readonly Block[] = [
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
];
const DEFAULT_TOOL_RESULT_BYTES = 3000;

/** One conversation held by the scripted client. */
export class ScriptedClient {
  /** The transcript as the client keeps it; tests may edit it, as a tool's output would. */
  readonly messages: ClientMessage[];
  /** Replies answered so far. */
  turn = 0;
  /** Every body this client sent, byte for byte. */
  readonly sent: Buffer[] = [];
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly options: ScriptedClientOptions = {},
  ) {
    const first = options.firstContent ?? [
      { type: 'text', text: '<system-reminder>Today is a day.</system-reminder>' },
      { type: 'text', text: options.prompt ?? 'Please read the project files.' },
    ];
    this.messages = [{ role: 'user', content: first }];
  }

  /** The request body for the transcript as it is now, in the client's key order. */
  body(): Buffer {
    const last = this.messages.length - 1;
    return Buffer.from(
      JSON.stringify({
        model: this.options.model ?? 'claude-sonnet-4-5',
        messages: this.messages.map((m, i) => (i === last ? markLastMessage(m).last : m)),
        system: this.options.system ?? DEFAULT_SYSTEM,
        tools: this.options.tools ?? DEFAULT_TOOLS,
        metadata: { user_id: this.options.userId ?? 'test' },
        max_tokens: this.options.maxTokens ?? 32000,
        ...(this.options.thinking === undefined ? {} : { thinking: this.options.thinking }),
        stream: this.options.stream ?? false,
      }),
      'utf8',
    );
  }

  /** Sends the transcript as it is (to `path`, a model call by default) and returns the raw response. */
  async send(path = '/v1/messages?beta=true'): Promise<RawResponse> {
    const body = this.body();
    this.sent.push(body);
    return postRaw(this.baseUrl, path, body, { 'x-api-key': 'sk-ant-test-000', 'anthropic-version': '2023-06-01', ...this.options.headers }, this.#agent);
  }

  /**
   * Takes the assistant's reply into the transcript, verbatim (thinking blocks and their signatures
   * included, as the preserved-thinking models require), and answers each tool_use with its result.
   */
  async answer(reply: { readonly content: Block[] }): Promise<void> {
    this.turn += 1;
    const turn = this.turn;
    this.messages.push({ role: 'assistant', content: reply.content });
    const results: Block[] = [];
    for (const use of reply.content.filter((b) => b['type'] === 'tool_use')) {
      results.push({ type: 'tool_result', tool_use_id: use['id'], content: await this.#runTool(use, turn) });
    }
    this.messages.push({ role: 'user', content: results.length > 0 ? results : (this.options.nextPrompt?.(turn) ?? `turn ${turn}: go on`) });
  }

  /**
   * Claude Code's compaction after a refusal as too long (2.1.332 in print mode, measured against
   * the scripted API): a new history that opens with a summary of the old one, then its last turn
   * again; when that is refused too, the summary alone. Its first message is new, so ctxshed sees a
   * new conversation, as it does after the real client's compaction.
   */
  compact(): void {
    const again = this.#compacted;
    const lastTurn = again || this.messages.length < 3 ? [] : this.messages.slice(-2);
    const summary = `This session is being continued from a previous conversation that ran out of context. The task: ${this.options.prompt ?? 'Please read the project files.'}`;
    this.messages.splice(0, this.messages.length, { role: 'user', content: summary }, ...lastTurn);
    this.#compacted = true;
  }

  #compacted = false;

  /**
   * One whole turn: send, read the reply (SSE or JSON, as it came) and, on a 200, answer it. A
   * refusal as too long compacts first when `compactOnRefusal` says so.
   */
  async turnOnce(): Promise<ClientTurn> {
    const res = await this.send();
    const sent = this.sent[this.sent.length - 1]!;
    if (res.status === 400 && this.options.compactOnRefusal === true && res.body.toString('utf8').includes('prompt is too long')) this.compact();
    if (res.status !== 200) return { ...res, sent, reply: undefined };
    this.#compacted = false;
    const reply = readReply(res);
    await this.answer(reply);
    return { ...res, sent, reply };
  }

  /** Closes the client's keep-alive connection. */
  close(): void {
    this.#agent.destroy();
  }

  #runTool(use: Block, turn: number): string | Promise<string> {
    if (this.options.runTool !== undefined) return this.options.runTool(use, turn);
    return toolOutput(turn, this.options.toolResultBytes?.(turn) ?? DEFAULT_TOOL_RESULT_BYTES);
  }
}

function readReply(res: RawResponse): { content: Block[]; stopReason: string | undefined } {
  const text = res.body.toString('utf8');
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    const { content, stopReason } = decodeSse(text);
    return { content, stopReason };
  }
  const message = JSON.parse(text) as { content: Block[]; stop_reason?: string };
  return { content: message.content, stopReason: message.stop_reason };
}
