/**
 * Request bodies shaped like Claude Code's (test/fixtures/real/README.md, 2.1.197):
 * the same top-level key order,
 * three system blocks, ~25 tools of ~70 KB JSON schema, a transcript of thinking/text/tool_use
 * turns answered by string tool_results, `role: "system"` reminders, and the message-level
 * cache breakpoint on the last block. Deterministic from a seed; about half the bytes of a body
 * are tool results once the body is well past the fixed ~95 KB of system and tools.
 */
import { base64, commandOutput, hex, prose, readOutput, toolUseId } from './claude-code-text.js';
import { seededRandom, type SeededRandom } from './seeded-random.js';

/** What to generate. */
export interface ClaudeCodeBodyOptions {
  /** Size to aim for, in bytes; the body lands within a few KB of it (never below the fixed part). */
  readonly targetBytes: number;
  readonly seed?: number;
  readonly model?: string;
}

/** A generated body and what it is made of. */
export interface ClaudeCodeBody {
  /** The body as the client would send it (compact `JSON.stringify`, UTF-8). */
  readonly bytes: Buffer;
  readonly toolResults: number;
  /** JSON bytes of all tool_result `content` values. */
  readonly toolResultBytes: number;
  readonly messages: number;
}

const EPHEMERAL = { type: 'ephemeral' } as const;
const TOOL_NAMES = [
  'Task',
  'Bash',
  'Glob',
  'Grep',
  'ExitPlanMode',
  'Read',
  'Edit',
  'Write',
  'NotebookEdit',
  'WebFetch',
  'TodoWrite',
  'WebSearch',
  'BashOutput',
  'KillShell',
  'Skill',
  'SlashCommand',
  'AskUserQuestion',
  'EnterPlanMode',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'mcp__ide__getDiagnostics',
  'mcp__ide__executeCode',
  'mcp__github__get_issue',
  'mcp__github__create_pull_request',
  'LSP',
];
/** Total JSON bytes the tools aim for (test/fixtures/real/README.md: 64-76 KB). */
const TOOLS_BYTES = 70_000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Builds one Claude Code-shaped request body of about `targetBytes` bytes. */
export function buildClaudeCodeBody(options: ClaudeCodeBodyOptions): ClaudeCodeBody {
  const { head, transcript, messages } = startBody(options);
  while (transcript.totalBytes < options.targetBytes) transcript.turn(options.targetBytes);
  transcript.finish();
  messages.push(...transcript.messages);
  return {
    bytes: Buffer.from(JSON.stringify(head), 'utf8'),
    toolResults: transcript.toolResults,
    toolResultBytes: transcript.toolResultBytes,
    messages: messages.length,
  };
}

/**
 * A Claude Code-shaped conversation that grows by one turn per request, as the client sends it
 * (test/fixtures/real/README.md): each request resends the whole history with one more turn (an assistant
 * message with its tool_uses, the user message with their results), and the one message-level
 * breakpoint moves to the new last user message, so the previous one loses its `cache_control`.
 * Every other byte of the history is the same as in the request before.
 */
export class ClaudeCodeConversation {
  readonly #parts: { before: string; after: string };
  readonly #transcript: Transcript;
  /** Each message's JSON without the breakpoint, written once (the client reuses the bytes). */
  readonly #json: string[] = [];
  #requests = 0;

  constructor(options: ClaudeCodeBodyOptions) {
    const { head, transcript } = startBody(options);
    while (transcript.totalBytes < options.targetBytes) transcript.turn(options.targetBytes);
    const [before, after] = JSON.stringify({ ...head, messages: [SLOT] }).split(JSON.stringify(SLOT)) as [string, string];
    this.#parts = { before, after };
    this.#transcript = transcript;
  }

  /** The next request's body: the first is about `targetBytes`, each later one a turn longer. */
  next(): Buffer {
    if (this.#requests++ > 0) this.#transcript.turn(Number.POSITIVE_INFINITY);
    const messages = this.#transcript.messages;
    for (let i = this.#json.length; i < messages.length; i++) this.#json.push(JSON.stringify(messages[i]));
    const mark = breakpointIndex(messages);
    const json = mark < 0 ? this.#json : [...this.#json.slice(0, mark), JSON.stringify(withBreakpoint(messages[mark]!)), ...this.#json.slice(mark + 1)];
    return Buffer.from(`${this.#parts.before}${json.join(',')}${this.#parts.after}`, 'utf8');
  }
}

const SLOT = '\u0000messages';

/** The last user message with block content: where the client puts its breakpoint. */
function breakpointIndex(messages: readonly Json[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role: string; content: Json };
    if (m.role === 'user' && Array.isArray(m.content) && m.content.length > 0) return i;
  }
  return -1;
}

function withBreakpoint(message: Json): Json {
  const m = message as { role: string; content: Json[] };
  const blocks = [...m.content];
  blocks[blocks.length - 1] = { ...(blocks[blocks.length - 1] as Record<string, Json>), cache_control: EPHEMERAL };
  return { ...m, content: blocks };
}

function startBody(options: ClaudeCodeBodyOptions): { head: Record<string, Json>; transcript: Transcript; messages: Json[] } {
  const r = seededRandom(options.seed ?? 1);
  const system = buildSystem(r);
  const tools = buildTools(r);
  const sessionId = `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
  const messages: Json[] = [];
  const head = {
    model: options.model ?? 'claude-opus-4-6',
    messages,
    system,
    tools,
    metadata: { user_id: JSON.stringify({ device_id: hex(r, 64), account_uuid: '', session_id: sessionId }) },
    max_tokens: 32000,
    thinking: { budget_tokens: 31999, type: 'enabled' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    stream: true,
  };
  const fixedBytes = jsonBytes(head);
  const transcript = new Transcript(r, fixedBytes);
  transcript.add(firstPrompt(r));
  transcript.add({ role: 'system', content: `<system-reminder>\nAvailable agents:\n${prose(r, 600)}\n</system-reminder>` });
  return { head, transcript, messages };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function buildSystem(r: SeededRandom): Json[] {
  return [
    { type: 'text', text: `x-anthropic-billing-header: cc_version=2.1.197.${hex(r, 3)}; cc_entrypoint=cli;` },
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: EPHEMERAL },
    { type: 'text', text: prose(r, 18_000), cache_control: EPHEMERAL },
  ];
}

function buildTools(r: SeededRandom): Json[] {
  // Each tool's share of the total is random (Bash's description is long, Glob's short).
  const weights = TOOL_NAMES.map(() => 0.3 + 1.4 * r.next());
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  return TOOL_NAMES.map((name, i) => {
    const properties: Record<string, Json> = {};
    const count = r.int(1, 6);
    for (let k = 0; k < count; k++) {
      properties[`${r.pick(['file_path', 'command', 'pattern', 'description', 'timeout', 'old_string', 'new_string', 'prompt', 'url'])}_${k}`] = {
        type: r.pick(['string', 'number', 'boolean']),
        description: prose(r, r.int(40, 300)),
      };
    }
    const schema = {
      type: 'object',
      properties,
      required: Object.keys(properties).slice(0, 1),
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    };
    const share = Math.round((TOOLS_BYTES * weights[i]!) / totalWeight);
    return { name, description: prose(r, Math.max(200, share - jsonBytes(schema) - 60)), input_schema: schema };
  });
}

function firstPrompt(r: SeededRandom): Json {
  return {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\n${prose(r, 3000)}\n</system-reminder>\n`,
      },
      { type: 'text', text: prose(r, 300) },
    ],
  };
}

/** The growing `messages` list, with the byte counts that steer its shape. */
class Transcript {
  readonly messages: Json[] = [];
  toolResults = 0;
  toolResultBytes = 0;
  /** Bytes of messages that are not tool_result content, plus the fixed part of the body. */
  private otherBytes: number;

  constructor(
    private readonly r: SeededRandom,
    fixedBytes: number,
  ) {
    this.otherBytes = fixedBytes;
  }

  get totalBytes(): number {
    return this.otherBytes + this.toolResultBytes;
  }

  add(message: Json): void {
    this.messages.push(message);
    this.otherBytes += jsonBytes(message) + 1;
  }

  /** One assistant turn (thinking, text, one or two tool_uses) and the user turn answering it. */
  turn(targetBytes: number): void {
    const r = this.r;
    const calls = r.chance(0.2) ? 2 : 1;
    const outputs: string[] = [];
    const uses: Json[] = [];
    const remaining = Math.max(200, Math.floor((targetBytes - this.totalBytes) / 2));
    for (let i = 0; i < calls; i++) {
      const size = Math.min(remaining, r.logInt(200, 30_000));
      const id = toolUseId(r);
      if (r.chance(0.55)) {
        uses.push({ type: 'tool_use', id, name: 'Read', input: { file_path: `/work/app/src/${hex(r, 6)}.ts` } });
        outputs.push(readOutput(r, size));
      } else {
        uses.push({
          type: 'tool_use',
          id,
          name: 'Bash',
          input: { command: r.pick(['npm test', 'git log -5', 'ls -la src', 'grep -rn latch src']), description: prose(r, 40) },
        });
        outputs.push(commandOutput(r, size));
      }
    }
    const newToolBytes = outputs.reduce((sum, o) => sum + jsonBytes(o), 0);
    // Half the body should be tool results: once they outweigh the rest, the model "thinks" more.
    const deficit = this.toolResultBytes + newToolBytes - this.otherBytes;
    const thinking = prose(r, Math.max(r.int(150, 600), Math.min(20_000, deficit - 600)));
    this.add({
      role: 'assistant',
      content: [{ type: 'thinking', thinking, signature: base64(r, r.int(300, 1200)) }, { type: 'text', text: prose(r, r.int(40, 300)) }, ...uses],
    });
    const results: Json[] = outputs.map((content, i) => {
      const use = uses[i] as { id: string; name: string };
      // The client writes is_error on Bash results only, and appends reminders inside the text.
      const text = r.chance(0.05) ? `${content}\n\n<system-reminder>\n${prose(r, 300)}\n</system-reminder>` : content;
      const block: Record<string, Json> = { tool_use_id: use.id, type: 'tool_result', content: text };
      if (use.name === 'Bash') block['is_error'] = r.chance(0.05);
      return block;
    });
    this.addUser(results);
    if (r.chance(0.08)) this.add({ role: 'system', content: `<system-reminder>\n${prose(r, r.int(100, 800))}\n</system-reminder>` });
  }

  private addUser(results: Json[]): void {
    this.messages.push({ role: 'user', content: results });
    for (const block of results) {
      const content = (block as { content: string }).content;
      this.toolResults++;
      this.toolResultBytes += jsonBytes(content);
      this.otherBytes += jsonBytes({ ...(block as object), content: '' }) - 2 + 1;
    }
    this.otherBytes += jsonBytes({ role: 'user', content: [] }) + 1;
  }

  /** The client's one message-level breakpoint: on the last block of the last user message. */
  finish(): void {
    const last = this.messages.at(-1) as { role: string; content: Json } | undefined;
    if (last?.role !== 'user' || !Array.isArray(last.content)) {
      this.add({ role: 'user', content: [{ type: 'text', text: prose(this.r, 200), cache_control: EPHEMERAL }] });
      return;
    }
    const block = last.content.at(-1) as Record<string, Json>;
    block['cache_control'] = EPHEMERAL;
    this.otherBytes += jsonBytes({ cache_control: EPHEMERAL }) - 1;
  }
}
