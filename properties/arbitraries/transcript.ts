/**
 * The structured model of a coding agent's conversation, and its arbitrary: a first prompt, then
 * turns (an assistant message with thinking and tool_use blocks, a user message with one
 * tool_result each, sometimes a `role: "system"` entry before them), plus `model`, `system`, `tools`,
 * `metadata`, `stream` and keys ctxshed does not know. `buildMessages` turns a spec into the JSON
 * values of its messages; client-growth.ts writes them out as the requests the client sends.
 */
import fc from 'fast-check';
import { markLastMessage, type BreakpointEdit } from '../../src/scripted/breakpoint.js';
import { base64Filler } from './prng.js';
import { formatProfileArb, type FormatProfile, type JsonObject, type JsonValue } from './styled-json.js';
import { shortTextArb, toolTextArb } from './text.js';

/** What Claude Code writes in place of a tool result it cleared. */
export const CLEARED_PLACEHOLDER = '[Old tool result content cleared]';
const EPHEMERAL: JsonObject = { type: 'ephemeral' };

/** Bulk base64 (an image, a signature, redacted thinking): a seed and a length, not the characters. */
export interface FillerSpec {
  readonly seed: number;
  readonly length: number;
}

export type ToolResultContentSpec =
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'texts'; readonly texts: readonly string[]; readonly cacheOnItem: boolean }
  | { readonly kind: 'image'; readonly text: string; readonly image: FillerSpec }
  | { readonly kind: 'placeholder' }
  /** A tool search's answer: it loads a deferred tool (shed never sheds one). */
  | { readonly kind: 'reference'; readonly toolName: string }
  | { readonly kind: 'absent' };

export interface ToolResultSpec {
  readonly content: ToolResultContentSpec;
  /** `undefined`: no `is_error` key. */
  readonly isError: boolean | undefined;
  /** A `cache_control` the block always carries (not the moving breakpoint). */
  readonly cacheControl: boolean;
  /** An extra key ctxshed does not know. */
  readonly extraKey: boolean;
}

export interface ToolCallSpec {
  readonly name: string;
  readonly input: JsonObject;
  readonly result: ToolResultSpec;
}

export interface AssistantSpec {
  readonly thinking: { readonly text: string; readonly signature: FillerSpec } | undefined;
  readonly redacted: FillerSpec | undefined;
  readonly text: string | undefined;
}

export type PromptBlockSpec =
  | { readonly kind: 'text'; readonly text: string; readonly cacheControl: boolean }
  | { readonly kind: 'image'; readonly image: FillerSpec };

/** A user prompt: a plain string (sent as a lone text block while it is last), or blocks. */
export type PromptSpec = { readonly kind: 'string'; readonly text: string } | { readonly kind: 'blocks'; readonly blocks: readonly PromptBlockSpec[] };

export type TurnSpec =
  | {
      readonly kind: 'tool';
      readonly assistant: AssistantSpec;
      readonly calls: readonly ToolCallSpec[];
      /** A text block after the tool_results (a reminder), maybe with its own cache_control. */
      readonly afterText: { readonly text: string; readonly cacheControl: boolean } | undefined;
      readonly system: string | undefined;
    }
  | {
      readonly kind: 'chat';
      readonly assistant: AssistantSpec;
      readonly prompt: PromptSpec;
      readonly system: string | undefined;
    };

export interface TopSpec {
  readonly model: string;
  readonly system: string | ReadonlyArray<{ readonly text: string; readonly cacheControl: boolean }> | undefined;
  readonly tools: readonly JsonObject[] | undefined;
  readonly userId: string | undefined;
  readonly maxTokens: number | undefined;
  readonly thinking: JsonObject | undefined;
  readonly stream: boolean | undefined;
  readonly extras: ReadonlyArray<readonly [string, JsonValue]>;
}

export interface ConversationSpec {
  readonly format: FormatProfile;
  readonly top: TopSpec;
  /** tool_use ids are `toolu_<idPrefix><n>`. */
  readonly idPrefix: string;
  readonly first: PromptSpec;
  readonly turns: readonly TurnSpec[];
}

const fillerArb = (min: number, max: number): fc.Arbitrary<FillerSpec> =>
  fc.record({ seed: fc.integer(), length: fc.integer({ min, max }).map((n) => n - (n % 4)) });

const smallJsonArb: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.constantFrom(0.5, 1e-7, 2.5e21, -3.25),
    shortTextArb,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'path', 'ü', 'k"ey', 'x\\y'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const toolInputArb: fc.Arbitrary<JsonObject> = fc.dictionary(
  fc.constantFrom('command', 'file_path', 'description', 'pattern', 'timeout', 'offset', 'limit', 'old_string'),
  smallJsonArb,
  { maxKeys: 3 },
);

const toolResultContentArb: fc.Arbitrary<ToolResultContentSpec> = fc.oneof(
  { weight: 10, arbitrary: toolTextArb.map((text) => ({ kind: 'string' as const, text })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ texts: fc.array(toolTextArb, { minLength: 1, maxLength: 3 }), cacheOnItem: fc.boolean() })
      .map(({ texts, cacheOnItem }) => ({ kind: 'texts' as const, texts, cacheOnItem: cacheOnItem && texts.length > 1 })),
  },
  { weight: 1, arbitrary: fc.record({ text: toolTextArb, image: fillerArb(4, 400) }).map((r) => ({ kind: 'image' as const, ...r })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'placeholder' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('mcp__ctxshed__restore', 'mcp__github__create_pr').map((toolName) => ({ kind: 'reference' as const, toolName })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
);

const toolResultArb: fc.Arbitrary<ToolResultSpec> = fc.record({
  content: toolResultContentArb,
  isError: fc.option(fc.boolean(), { nil: undefined }),
  cacheControl: fc.integer({ min: 0, max: 7 }).map((n) => n === 7),
  extraKey: fc.boolean(),
});

const toolCallArb: fc.Arbitrary<ToolCallSpec> = fc.record({
  name: fc.constantFrom('Bash', 'Read', 'Grep', 'Edit', 'Glob', 'mcp__ünï__fetch'),
  input: toolInputArb,
  result: toolResultArb,
});

const assistantArb: fc.Arbitrary<AssistantSpec> = fc.record({
  thinking: fc.option(fc.record({ text: shortTextArb, signature: fillerArb(100, 1200) }), { nil: undefined }),
  redacted: fc.option(fillerArb(20, 400), { nil: undefined, freq: 6 }),
  text: fc.option(shortTextArb, { nil: undefined }),
});

const promptArb: fc.Arbitrary<PromptSpec> = fc.oneof(
  { weight: 3, arbitrary: shortTextArb.map((text) => ({ kind: 'string' as const, text })) },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ text: shortTextArb, cacheControl: fc.boolean() }).map((b) => ({ kind: 'text' as const, ...b })) },
          { weight: 1, arbitrary: fillerArb(4, 200).map((image) => ({ kind: 'image' as const, image })) },
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((blocks) => ({ kind: 'blocks' as const, blocks })),
  },
);

const maybeSystemArb = fc.option(shortTextArb, { nil: undefined, freq: 4 });

const turnArb: fc.Arbitrary<TurnSpec> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      assistant: assistantArb,
      calls: fc.array(toolCallArb, { minLength: 1, maxLength: 3 }),
      afterText: fc.option(fc.record({ text: shortTextArb, cacheControl: fc.boolean() }), { nil: undefined, freq: 4 }),
      system: maybeSystemArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('chat' as const), assistant: assistantArb, prompt: promptArb, system: maybeSystemArb }),
  },
);

const toolSchemaArb: fc.Arbitrary<JsonObject> = fc.record({
  name: fc.constantFrom('Bash', 'Read', 'Grep', 'Edit', 'Glob'),
  description: shortTextArb,
  input_schema: fc.record({
    type: fc.constant('object'),
    properties: fc.dictionary(fc.constantFrom('command', 'file_path', 'pattern'), fc.record({ type: fc.constantFrom('string', 'number') }), { maxKeys: 3 }),
    additionalProperties: fc.constant(false),
  }),
});

const topArb: fc.Arbitrary<TopSpec> = fc.record({
  model: fc.constantFrom('claude-sonnet-4-5-20250929', 'claude-opus-4-1', 'claude-haiku-4-5'),
  system: fc.option(fc.oneof(shortTextArb, fc.array(fc.record({ text: shortTextArb, cacheControl: fc.boolean() }), { minLength: 1, maxLength: 3 })), {
    nil: undefined,
    freq: 5,
  }),
  tools: fc.option(fc.array(toolSchemaArb, { maxLength: 3 }), { nil: undefined, freq: 5 }),
  userId: fc.option(
    fc.record({ device_id: fc.constant('9f'.repeat(32)), account_uuid: fc.constant(''), session_id: fc.uuid() }).map((u) => JSON.stringify(u)),
    { nil: undefined },
  ),
  maxTokens: fc.option(fc.integer({ min: 1, max: 64_000 }), { nil: undefined }),
  thinking: fc.option(
    fc.oneof(
      fc.constant<JsonObject>({ type: 'disabled' }),
      fc.integer({ min: 1024, max: 32_000 }).map((n): JsonObject => ({ type: 'enabled', budget_tokens: n })),
    ),
    { nil: undefined },
  ),
  stream: fc.option(fc.boolean(), { nil: undefined }),
  extras: fc.uniqueArray(fc.tuple(fc.constantFrom('context_management', 'output_config', 'temperature', 'x_ünknown', 'service_tier'), smallJsonArb), {
    selector: ([k]) => k,
    maxLength: 2,
  }),
});

/** A whole conversation: its format, its top-level keys and `minTurns` to `maxTurns` turns. */
export function conversationSpecArb(maxTurns = 8, minTurns = 0): fc.Arbitrary<ConversationSpec> {
  return fc.record({
    format: formatProfileArb,
    top: topArb,
    idPrefix: fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz_'), minLength: 4, maxLength: 16 }),
    first: promptArb,
    turns: fc.array(turnArb, { minLength: minTurns, maxLength: maxTurns }),
  });
}

/** A message as it rests in the transcript, and the form the client sends while it is the last one. */
export interface MessageEntry {
  readonly rest: JsonObject;
  /** The message while it is last: with the moving `cache_control` breakpoint. */
  readonly last: JsonObject;
  /** How `last` turns into `rest` on the next request. */
  readonly edit: BreakpointEdit;
}

/** The messages of a conversation, and how many of them each request carries. */
export interface BuiltMessages {
  readonly entries: readonly MessageEntry[];
  /** Request r carries entries [0, requestEnds[r]); the first request is the first prompt alone. */
  readonly requestEnds: readonly number[];
}

/** The JSON values of a conversation's messages. */
export function buildMessages(spec: ConversationSpec): BuiltMessages {
  const entries: MessageEntry[] = [];
  const requestEnds: number[] = [];
  let nextId = 0;
  const push = (role: string, content: string | readonly JsonObject[]): void => {
    entries.push(withBreakpoint({ role, content }));
  };
  push('user', promptContent(spec.first));
  requestEnds.push(entries.length);
  for (const turn of spec.turns) {
    const ids = turn.kind === 'tool' ? turn.calls.map(() => `toolu_${spec.idPrefix}${String(nextId++).padStart(3, '0')}`) : [];
    const blocks = assistantBlocks(turn.assistant);
    if (turn.kind === 'tool') {
      for (const [i, call] of turn.calls.entries()) blocks.push({ type: 'tool_use', id: ids[i]!, name: call.name, input: call.input });
    } else if (blocks.length === 0) {
      blocks.push({ type: 'text', text: 'Done.' });
    }
    // A system entry (reminder, queued input) comes before the assistant turn, never between a
    // tool_use and its tool_result.
    if (turn.system !== undefined) push('system', turn.system);
    push('assistant', blocks);
    if (turn.kind === 'tool') {
      const results = turn.calls.map((call, i) => toolResultBlock(ids[i]!, call.result));
      if (turn.afterText !== undefined) results.push(textBlock(turn.afterText.text, turn.afterText.cacheControl));
      push('user', results);
    } else {
      push('user', promptContent(turn.prompt));
    }
    requestEnds.push(entries.length);
  }
  return { entries, requestEnds };
}

/** The message at rest and as the client sends it while it is last: the scripted client's own edit. */
function withBreakpoint(rest: JsonObject & { readonly content: string | readonly JsonObject[] }): MessageEntry {
  const { last, edit } = markLastMessage(rest);
  return { rest, last, edit };
}

function promptContent(prompt: PromptSpec): string | JsonObject[] {
  if (prompt.kind === 'string') return prompt.text;
  return prompt.blocks.map((b) => (b.kind === 'text' ? textBlock(b.text, b.cacheControl) : imageBlock(b.image)));
}

function assistantBlocks(a: AssistantSpec): JsonObject[] {
  const blocks: JsonObject[] = [];
  if (a.thinking !== undefined) {
    blocks.push({ type: 'thinking', thinking: a.thinking.text, signature: base64Filler(a.thinking.signature.seed, a.thinking.signature.length) });
  }
  if (a.redacted !== undefined) blocks.push({ type: 'redacted_thinking', data: base64Filler(a.redacted.seed, a.redacted.length) });
  if (a.text !== undefined) blocks.push({ type: 'text', text: a.text });
  return blocks;
}

function textBlock(text: string, cacheControl: boolean): JsonObject {
  return cacheControl ? { type: 'text', text, cache_control: EPHEMERAL } : { type: 'text', text };
}

function imageBlock(image: FillerSpec): JsonObject {
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64Filler(image.seed, image.length) } };
}

function toolResultBlock(id: string, spec: ToolResultSpec): JsonObject {
  const block: Record<string, JsonValue> = { type: 'tool_result', tool_use_id: id };
  const c = spec.content;
  switch (c.kind) {
    case 'string':
      block['content'] = c.text;
      break;
    case 'texts':
      block['content'] = c.texts.map((t, i) => textBlock(t, c.cacheOnItem && i === 0));
      break;
    case 'image':
      block['content'] = [textBlock(c.text, false), imageBlock(c.image)];
      break;
    case 'placeholder':
      block['content'] = CLEARED_PLACEHOLDER;
      break;
    case 'reference':
      block['content'] = [{ type: 'tool_reference', tool_name: c.toolName }];
      break;
    case 'absent':
      break;
  }
  if (spec.isError !== undefined) block['is_error'] = spec.isError;
  if (spec.extraKey) block['x_trace'] = { span: id };
  if (spec.cacheControl) block['cache_control'] = EPHEMERAL;
  return block;
}
