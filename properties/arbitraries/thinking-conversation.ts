/**
 * Conversations on a preserved-thinking model, grown turn by turn the way a client grows them:
 * a user prompt; then per tool turn an assistant `[thinking, tool_use]` and a user `[tool_result]`
 * with large text; then a final assistant `[thinking, text]` and the next user prompt. Every
 * request resends the whole history with the client's moving breakpoint (breakpoint.ts: the last
 * message carries `cache_control`, a string prompt goes out as a lone text block while it is
 * last), and every assistant turn is the scripted model's answer to the request before it,
 * signed by the rules of src/scripted/preserved-thinking (the same signer the scripted API uses).
 */
import fc from 'fast-check';
import { markLastMessage } from '../../src/scripted/breakpoint.js';
import type { ReplyBlock } from '../../src/scripted/message.js';
import { checkThinking, type CheckInput } from '../../src/scripted/preserved-thinking/check-thinking.js';
import { PREFIX_CHECK_MODELS } from '../../src/scripted/preserved-thinking/models.js';
import { signReplyContent } from '../../src/scripted/preserved-thinking/sign-thinking.js';
import { cycleText } from './text.js';

/** A message as the client keeps it. */
export interface ThinkingMessage {
  readonly role: string;
  readonly content: string | ReadonlyArray<Record<string, unknown>>;
}

/** One request body as sent (parsed values; key order is the client's). */
export interface ThinkingRequestBody {
  readonly model: string;
  readonly system: unknown;
  readonly tools: unknown;
  readonly messages: readonly ThinkingMessage[];
  readonly [key: string]: unknown;
}

/** What varies between generated conversations. */
export interface ThinkingConversationSpec {
  readonly model: string;
  readonly systemAsString: boolean;
  readonly firstPromptAsBlocks: boolean;
  /** Bytes of each tool turn's tool_result text. */
  readonly toolResultBytes: readonly number[];
  readonly finalText: string;
}

const TOOLS = [
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
];
const SYSTEM_TEXT = 'You are a coding agent. Use tools.';
const FILE_WORDS = ['export', 'function', 'const', 'return', 'await', 'import', '{', '}', ';'];

/** Conversations of 1..maxTurns tool turns on one of the prefix-check models. */
export function thinkingConversationSpecArb(maxTurns = 6): fc.Arbitrary<ThinkingConversationSpec> {
  return fc.record({
    model: fc.constantFrom(...PREFIX_CHECK_MODELS),
    systemAsString: fc.boolean(),
    firstPromptAsBlocks: fc.boolean(),
    toolResultBytes: fc.array(fc.integer({ min: 2_000, max: 16_000 }), { minLength: 1, maxLength: maxTurns }),
    finalText: fc.string({ minLength: 1, maxLength: 40 }),
  });
}

/** The check's input for a body, with the account default and request behavior given. */
export function checkInputFor(body: ThinkingRequestBody, extra: Partial<CheckInput> = {}): CheckInput {
  return {
    model: body.model,
    system: body.system,
    tools: body.tools,
    messages: body.messages,
    requested: undefined,
    hasBlockBinding: false,
    betaHeader: false,
    accountDefault: 'error',
    ...extra,
  };
}

/** The system prompt a conversation of `spec` sends: a string, or one text block with a breakpoint. */
export function systemOf(spec: Pick<ThinkingConversationSpec, 'systemAsString'>): ThinkingRequestBody['system'] {
  return spec.systemAsString ? SYSTEM_TEXT : [{ type: 'text', text: SYSTEM_TEXT, cache_control: { type: 'ephemeral' } }];
}

/** The request a client sends with `kept` as its history: the last message carries the breakpoint. */
export function clientRequestOf(model: string, system: ThinkingRequestBody['system'], kept: readonly ThinkingMessage[]): ThinkingRequestBody {
  const messages = kept.map((m, i) => (i === kept.length - 1 ? markLastMessage(m).last : m));
  return { model, messages, system, tools: TOOLS, max_tokens: 32000, thinking: { type: 'adaptive', display: 'omitted' }, stream: true };
}

/** Every request the client sends in the conversation, in order. */
export function growThinkingConversation(spec: ThinkingConversationSpec): ThinkingRequestBody[] {
  const system = systemOf(spec);
  const prompt = 'Read the project files and fix the bug.';
  const kept: ThinkingMessage[] = [
    {
      role: 'user',
      content: spec.firstPromptAsBlocks
        ? [
            { type: 'text', text: '<system-reminder>today</system-reminder>' },
            { type: 'text', text: prompt },
          ]
        : prompt,
    },
  ];
  const requests: ThinkingRequestBody[] = [];
  const send = (): ThinkingRequestBody => {
    const body = clientRequestOf(spec.model, system, kept);
    requests.push(body);
    return body;
  };
  const reply = (body: ThinkingRequestBody, blocks: ReplyBlock[]): ThinkingMessage => {
    const { outcome } = checkThinking(checkInputFor(body));
    if (outcome.kind !== 'answer') throw new Error(`the generator's own request was refused: ${outcome.message}`);
    return {
      role: 'assistant',
      content: signReplyContent(body.model, checkInputFor(body), blocks, outcome.seen, '') as unknown as Array<Record<string, unknown>>,
    };
  };
  spec.toolResultBytes.forEach((bytes, t) => {
    const id = `toolu_01${String(t).padStart(22, '0')}`;
    kept.push(reply(send(), [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/file-${t}.ts` } }]));
    kept.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: cycleText(FILE_WORDS, bytes) }] });
  });
  kept.push(reply(send(), [{ type: 'text', text: spec.finalText }]));
  kept.push({ role: 'user', content: 'Thanks. Now run the tests.' });
  send();
  return requests;
}

/** Generated conversations: every request, in order. */
export function thinkingConversationArb(maxTurns = 6): fc.Arbitrary<ThinkingRequestBody[]> {
  return thinkingConversationSpecArb(maxTurns).map(growThinkingConversation);
}
