/**
 * A small test dialect, written from docs/adding-a-dialect.md alone: the "log" API, whose body is
 * `{"model": "...", "turns": [{"role": "user", "text": "..."}, {"role": "tool", "id": "c1", "text": "..."}]}`
 * and whose route is `POST /v1/log`; it answers JSON `{"turn": ..., "usage": {"context_tokens": N}}`, or SSE
 * ending in a `log.done` event with that usage, and refuses a body over the window with a 400 `too long: N`. Each turn is a message whose one block is itself; a `tool`
 * turn is a tool result, its `text` value what a stub replaces. Nothing in src/ knows it: the test
 * registers it with `registerDialect`.
 */
import { detectShellRefaults } from '../../src/core/detect-refaults.js';
import { readOpenAiCalls, readNewestOpenAiCalls } from '../../src/core/openai/read-openai-calls.js';
import { scanArray, scanObject, scanString, scanValue } from '../../src/core/json-scan.js';
import type { ApiDialect, KeyLookup, UsageEvents, UsageNote } from '../../src/core/dialects/dialect.js';
import type { MessageFacts } from '../../src/core/shed/message-facts-type.js';
import type { MessageInfo, Span, ToolResultInfo, TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { indexOrFailure, readStringValue, readToken, scanTopLevel, ShapeError } from '../../src/core/openai/index-support.js';
import { indexToolOutput, ABSENT_OUTPUT, type IndexedToolOutput } from '../../src/core/openai/tool-output.js';

const UTF8 = new TextDecoder('utf-8');
const ENCODER = new TextEncoder();

/** The log API as a dialect: one record. */
export const LOG_API: ApiDialect = {
  name: 'log',
  routes: [{ route: 'log', matches: (pathname) => pathname === '/v1/log', readsFullness: true }],
  ownsPath: (pathname) => pathname.startsWith('/v1/log'),
  index: (body) => indexOrFailure(body, buildIndex),
  supports: { spans: false, thinking: false, modelLabels: false, keyFromHead: false, websocket: false, streamedRefusal: false },
  sessionHeader: 'x-log-session',
  key: logKey,
  window: () => 100_000,
  requestClass: () => undefined,
  usage: { json: readLogUsage, events: logUsageEvents },
  errorBody: (error) => JSON.stringify({ log_error: { code: error.code, message: error.message } }),
  tooLong: (text) => (/^too long: (\d+)$/.exec(text) === null ? undefined : { tokens: Number(/\d+/.exec(text)?.[0]) }),
  calls: readOpenAiCalls,
  newestCalls: readNewestOpenAiCalls,
  refaults: detectShellRefaults,
  messageFacts: readLogFacts,
  // Each assistant turn is one model call.
  modelCalls: (index) => index.messages.filter((m) => m.role === 'assistant').length,
  firstPrompt: (body, index) => {
    const first = index.messages[0];
    return first === undefined ? '' : String((JSON.parse(UTF8.decode(body.subarray(first.start, first.end))) as { text?: unknown }).text ?? '');
  },
};

/** A JSON answer's usage: `{"usage": {"context_tokens": N}}`, the whole context as input. */
function readLogUsage(body: unknown): UsageNote {
  const tokens = (body as { usage?: { context_tokens?: unknown } } | null)?.usage?.context_tokens;
  return typeof tokens === 'number' ? { usage: { inputTokens: tokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 } } : {};
}

/** A stream's usage: the `log.done` event's data, read as a JSON answer is. */
function logUsageEvents(): UsageEvents {
  let note: UsageNote = {};
  return {
    take: (event) => {
      if (event.event !== 'log.done') return undefined;
      try {
        note = readLogUsage(JSON.parse(event.data));
        return undefined;
      } catch {
        return 'log.done event data is not JSON';
      }
    },
    read: () => note,
  };
}

/** What shed mode and the working set read of each turn: its role, its `text` token, a tool turn's id; a user turn is a prompt. */
function readLogFacts(body: Uint8Array, index: TranscriptIndex): MessageFacts[] {
  return index.messages.map((message) => {
    const isTool = message.blocks[0]?.type === 'tool_result';
    const texts: Span[] = [];
    scanObject(body, message.start, 2, (keyStart, keyEnd, valueStart, d) => {
      const end = scanValue(body, valueStart, d);
      if (!isTool && readToken(body, keyStart, keyEnd) === 'text' && body[valueStart] === 0x22) texts.push({ start: valueStart, end });
      return end;
    });
    const role = message.role;
    return {
      role,
      cacheControl: false,
      thinking: false,
      toolUseIds: [],
      toolResultIds: isTool ? [message.blocks[0]!.id] : [],
      loadsTool: false,
      texts,
      prompt: role === 'user' && texts.length > 0,
      restores: false,
    };
  });
}

/** The key: the first turn's bytes and the session header, hashed. */
function logKey(body: Uint8Array, input: { readonly sessionId: string | undefined }, sha256: (b: Uint8Array) => string): KeyLookup {
  const indexed = LOG_API.index(body);
  if (indexed.kind === 'failed') return { kind: 'none', reason: indexed.reason, detail: indexed.detail };
  const first = indexed.index.messages[0];
  if (first === undefined) return { kind: 'none', reason: 'no_epoch', detail: 'no turns' };
  const parts = ['log/1', UTF8.decode(body.subarray(first.start, first.end)), input.sessionId ?? null];
  return { kind: 'found', key: sha256(ENCODER.encode(JSON.stringify(parts))), index: indexed.index };
}

function buildIndex(b: Uint8Array): TranscriptIndex {
  let messagesSpan: Span | undefined;
  const messages: MessageInfo[] = [];
  const toolResults: ToolResultInfo[] = [];
  const { model } = scanTopLevel(b, ['turns', 'model'], (key, valueStart, depth) => {
    if (key !== 'turns') return undefined;
    if (b[valueStart] !== 0x5b) throw new ShapeError('not_messages_body', '"turns" is not an array');
    const end = scanArray(b, valueStart, depth + 1, (start, i, d) => indexTurn(b, start, i, d, messages, toolResults));
    messagesSpan = { start: valueStart, end };
    return end;
  });
  if (messagesSpan === undefined) throw new ShapeError('not_messages_body', 'no "turns" key');
  return { byteLength: b.length, messagesSpan, messages, toolResults, model };
}

function indexTurn(b: Uint8Array, start: number, index: number, depth: number, messages: MessageInfo[], toolResults: ToolResultInfo[]): number {
  if (b[start] !== 0x7b) throw new ShapeError('not_messages_body', `turn ${index} is not an object`);
  let role: string | undefined;
  let id: string | undefined;
  let text: IndexedToolOutput = ABSENT_OUTPUT;
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readToken(b, keyStart, keyEnd);
    if (key === 'role') role = readStringValue(b, valueStart, `turn ${index} role`);
    else if (key === 'id') id = readStringValue(b, valueStart, `turn ${index} id`);
    else if (key === 'text') {
      text = indexToolOutput(b, valueStart, d, 'text');
      return text.content.end;
    }
    return b[valueStart] === 0x22 ? scanString(b, valueStart) : scanValue(b, valueStart, d);
  });
  if (role === undefined) throw new ShapeError('not_messages_body', `turn ${index} has no role`);
  const isTool = role === 'tool' && id !== undefined;
  if (isTool) {
    const { content, textOnly, hasCacheMark } = text;
    toolResults.push({
      start,
      end,
      ordinal: toolResults.length,
      messageIndex: index,
      blockIndex: 0,
      toolUseId: id as string,
      content,
      isError: false,
      hasCacheControl: hasCacheMark,
      textOnly,
    });
  }
  messages.push({ start, end, role, content: { start, end, kind: 'array' }, blocks: [{ start, end, type: isTool ? 'tool_result' : 'message', id: id ?? '' }] });
  return end;
}
