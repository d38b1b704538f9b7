/**
 * Generated OpenAI conversations, Responses API and Chat Completions alike, and the requests a
 * client sends as they grow. What Codex does (test/fixtures/real-openai/README.md): every request
 * resends the whole transcript, items are only ever appended, and a top-level field outside the
 * transcript (`client_metadata`) changes on every request. Each item is styled once, with the
 * non-canonical whitespace, escapes and key orders of styled-json.ts, and its bytes reused.
 *
 * Responses: leading items (Codex's `additional_tools` item, a developer message, the user's
 * prompt as an easy message or a typed one), then turns of reasoning, text, `function_call` /
 * `custom_tool_call` items and their outputs (a string, `input_text` parts, parts with an image or
 * a cache mark, no output, null). Chat: a system message, the prompt, then assistant messages
 * with `tool_calls` and one `tool` message per call.
 */
import fc from 'fast-check';
import { base64Filler } from './prng.js';
import {
  formatProfileArb,
  Styler,
  withMemberNode,
  writeStyled,
  type FormatProfile,
  type JsonObject,
  type JsonValue,
  type StyledItem,
  type StyledNode,
} from './styled-json.js';
import { shortTextArb, toolTextArb } from './text.js';

export type OpenAiApiName = 'responses' | 'chat';

export type OutputSpec =
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'texts'; readonly texts: readonly string[] }
  | { readonly kind: 'image'; readonly text: string }
  | { readonly kind: 'marked'; readonly text: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'null' };

export interface CallSpec {
  /** Responses only: a `custom_tool_call` (Codex's `exec`) rather than a `function_call`. */
  readonly custom: boolean;
  readonly command: string;
  readonly output: OutputSpec;
  /** A key ctxshed does not know on the output item or message. */
  readonly extraKey: boolean;
}

export interface OpenAiTurnSpec {
  readonly reasoning: string | undefined;
  readonly text: string | undefined;
  readonly calls: readonly CallSpec[];
  /** A user message after the outputs (a new prompt). */
  readonly user: string | undefined;
}

export interface OpenAiConversationSpec {
  readonly api: OpenAiApiName;
  readonly format: FormatProfile;
  readonly promptCacheKey: string | undefined;
  readonly toolsItem: boolean;
  readonly easyPrompt: boolean;
  readonly developer: string;
  readonly first: string;
  /** call ids are `call_<idPrefix><n>`. */
  readonly idPrefix: string;
  readonly turns: readonly OpenAiTurnSpec[];
  readonly extras: ReadonlyArray<readonly [string, JsonValue]>;
}

/** One request body the client sends. */
export interface OpenAiRequest {
  readonly api: OpenAiApiName;
  readonly bytes: Uint8Array;
  /** What `JSON.parse` must return for `bytes`. */
  readonly value: JsonObject;
  /** Items (Responses) or messages (chat) in this request. */
  readonly itemCount: number;
  readonly [fc.toStringMethod]: () => string;
}

const outputArb: fc.Arbitrary<OutputSpec> = fc.oneof(
  { weight: 10, arbitrary: toolTextArb.map((text) => ({ kind: 'string' as const, text })) },
  { weight: 4, arbitrary: fc.array(toolTextArb, { minLength: 1, maxLength: 3 }).map((texts) => ({ kind: 'texts' as const, texts })) },
  { weight: 1, arbitrary: toolTextArb.map((text) => ({ kind: 'image' as const, text })) },
  { weight: 1, arbitrary: toolTextArb.map((text) => ({ kind: 'marked' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'null' as const }) },
);

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  custom: fc.boolean(),
  command: fc.oneof(shortTextArb, fc.constantFrom('cat src/app.ts', 'ls -la', 'seq 1 400')),
  output: outputArb,
  extraKey: fc.boolean(),
});

const turnArb: fc.Arbitrary<OpenAiTurnSpec> = fc.record({
  reasoning: fc.option(shortTextArb, { nil: undefined }),
  text: fc.option(shortTextArb, { nil: undefined }),
  calls: fc.array(callArb, { minLength: 1, maxLength: 3 }),
  user: fc.option(shortTextArb, { nil: undefined, freq: 5 }),
});

/** A whole conversation of one API (or either), with `minTurns` to `maxTurns` turns. */
export function openAiConversationSpecArb(api?: OpenAiApiName, maxTurns = 8, minTurns = 0): fc.Arbitrary<OpenAiConversationSpec> {
  return fc.record({
    api: api === undefined ? fc.constantFrom<OpenAiApiName>('responses', 'chat') : fc.constant(api),
    format: formatProfileArb,
    promptCacheKey: fc.option(fc.uuid(), { nil: undefined }),
    toolsItem: fc.boolean(),
    easyPrompt: fc.boolean(),
    developer: shortTextArb,
    first: shortTextArb,
    idPrefix: fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF_'), minLength: 2, maxLength: 12 }),
    turns: fc.array(turnArb, { minLength: minTurns, maxLength: maxTurns }),
    extras: fc.uniqueArray(
      fc.tuple(
        fc.constantFrom('tool_choice', 'parallel_tool_calls', 'temperature', 'x_ünknown', 'store'),
        fc.oneof(fc.boolean(), fc.constant('auto'), fc.integer()),
      ),
      { selector: ([k]) => k, maxLength: 3 },
    ),
  });
}

/** Every request of a generated conversation, in order. */
export function openAiConversationArb(api?: OpenAiApiName, maxTurns = 8, minTurns = 0): fc.Arbitrary<OpenAiRequest[]> {
  return openAiConversationSpecArb(api, maxTurns, minTurns).map(growOpenAiConversation);
}

/** One request body: the last request of a generated conversation. */
export function openAiRequestArb(api?: OpenAiApiName, maxTurns = 8, minTurns = 0): fc.Arbitrary<OpenAiRequest> {
  return openAiConversationSpecArb(api, maxTurns, minTurns).map((spec) => growOpenAiConversation(spec, true)[0]!);
}

/** The transcript's items, and after how many of them the client sends each request. */
export function buildItems(spec: OpenAiConversationSpec): { items: JsonObject[]; requestEnds: number[] } {
  const items: JsonObject[] = spec.api === 'responses' ? leadingResponses(spec) : leadingChat(spec);
  const requestEnds = [items.length];
  let n = 0;
  for (const turn of spec.turns) {
    const ids = turn.calls.map(() => `call_${spec.idPrefix}${n++}`);
    if (spec.api === 'responses') items.push(...responsesTurn(turn, ids));
    else items.push(...chatTurn(turn, ids));
    requestEnds.push(items.length);
  }
  return { items, requestEnds };
}

function leadingResponses(spec: OpenAiConversationSpec): JsonObject[] {
  const out: JsonObject[] = [];
  if (spec.toolsItem)
    out.push({ type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }] });
  out.push({ type: 'message', id: 'msg_dev', role: 'developer', content: [{ type: 'input_text', text: spec.developer }] });
  out.push(spec.easyPrompt ? { role: 'user', content: spec.first } : { type: 'message', role: 'user', content: [{ type: 'input_text', text: spec.first }] });
  return out;
}

function leadingChat(spec: OpenAiConversationSpec): JsonObject[] {
  return [
    { role: 'system', content: spec.developer },
    { role: 'user', content: spec.easyPrompt ? spec.first : [{ type: 'text', text: spec.first }] },
  ];
}

function responsesTurn(turn: OpenAiTurnSpec, ids: readonly string[]): JsonObject[] {
  const out: JsonObject[] = [];
  if (turn.reasoning !== undefined)
    out.push({
      type: 'reasoning',
      id: `rs_${ids[0]}`,
      summary: [{ type: 'summary_text', text: turn.reasoning }],
      encrypted_content: base64Filler(ids.length, 120),
    });
  if (turn.text !== undefined) out.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.text }] });
  turn.calls.forEach((call, i) => {
    const callId = ids[i]!;
    out.push(
      call.custom
        ? { type: 'custom_tool_call', call_id: callId, name: 'exec', input: `text(await tools.exec_command({cmd: ${JSON.stringify(call.command)}}))` }
        : { type: 'function_call', call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd: call.command }) },
    );
  });
  turn.calls.forEach((call, i) => {
    const item: Record<string, JsonValue> = { type: call.custom ? 'custom_tool_call_output' : 'function_call_output', call_id: ids[i]! };
    const output = outputValue(call.output, 'input_text', 'prompt_cache_breakpoint');
    if (output !== undefined) item['output'] = output;
    if (call.extraKey) item['status'] = 'completed';
    out.push(item);
  });
  if (turn.user !== undefined) out.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.user }] });
  return out;
}

function chatTurn(turn: OpenAiTurnSpec, ids: readonly string[]): JsonObject[] {
  const calls = turn.calls.map((call, i) => ({ id: ids[i]!, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ cmd: call.command }) } }));
  const out: JsonObject[] = [{ role: 'assistant', content: turn.text ?? null, tool_calls: calls }];
  turn.calls.forEach((call, i) => {
    const message: Record<string, JsonValue> = { role: 'tool', tool_call_id: ids[i]! };
    const content = outputValue(call.output, 'text', 'cache_control');
    if (content !== undefined) message['content'] = content;
    if (call.extraKey) message['name'] = 'shell';
    out.push(message);
  });
  if (turn.user !== undefined) out.push({ role: 'user', content: turn.user });
  return out;
}

function outputValue(output: OutputSpec, part: string, mark: string): JsonValue | undefined {
  switch (output.kind) {
    case 'string':
      return output.text;
    case 'texts':
      return output.texts.map((text) => ({ type: part, text }));
    case 'image':
      return [
        { type: part, text: output.text },
        part === 'text'
          ? { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }
          : { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      ];
    case 'marked':
      return [{ type: part, text: output.text, [mark]: mark === 'cache_control' ? { type: 'ephemeral' } : {} }];
    case 'absent':
      return undefined;
    case 'null':
      return null;
  }
}

const ENCODER = new TextEncoder();
const SLOT: StyledNode = { kind: 'atom', text: 'null' };

/**
 * Every request of the conversation, in order: items appended, `client_metadata` new each time.
 * `lastOnly` writes out only the last (the same bytes it has among all of them).
 */
export function growOpenAiConversation(spec: OpenAiConversationSpec, lastOnly = false): OpenAiRequest[] {
  const styler = new Styler(spec.format);
  const { items, requestEnds } = buildItems(spec);
  const listKey = spec.api === 'responses' ? 'input' : 'messages';
  const top: Array<readonly [string, JsonValue | undefined]> = [
    ['model', 'gpt-test'],
    ['stream', true],
    [listKey, undefined],
  ];
  for (const extra of spec.extras) top.push(extra);
  if (spec.promptCacheKey !== undefined) top.push(['prompt_cache_key', spec.promptCacheKey]);
  top.push(['client_metadata', undefined]);
  const lead = styler.ws();
  const root = styler.object(top.map(([k, v]) => [k, v === undefined ? SLOT : styler.value(v)] as const));
  const trail = styler.ws();
  const empty = styler.ws();
  const styled: StyledItem[] = items.map((item) => styler.item(styler.value(item)));
  const metadataNodes = requestEnds.map((_, r) => styler.value(metadataOf(r)));
  const wanted = lastOnly ? [requestEnds.length - 1] : requestEnds.map((_, r) => r);
  return wanted.map((r) => {
    const end = requestEnds[r]!;
    const metadata = metadataOf(r);
    let body = withMemberNode(root, listKey, { kind: 'array', items: styled.slice(0, end), empty });
    body = withMemberNode(body, 'client_metadata', metadataNodes[r]!);
    const value: Record<string, JsonValue> = {};
    for (const [k, v] of top) value[k] = k === listKey ? items.slice(0, end) : k === 'client_metadata' ? metadata : v!;
    const text = lead + writeStyled(body) + trail;
    return { api: spec.api, bytes: ENCODER.encode(text), value, itemCount: end, [fc.toStringMethod]: () => `${spec.api} body(${JSON.stringify(text)})` };
  });
}

function metadataOf(request: number): JsonObject {
  return { request, turn_started_at_unix_ms: 1_796_000_000_000 + request };
}
