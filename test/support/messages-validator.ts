/**
 * An independent check of the Messages API's rules for the `messages` of a request, written from
 * the API's documentation and its own error messages, not from ctxshed's splicer (which it must
 * never import). It parses with JSON.parse and looks only at meaning, never at bytes.
 *
 * The rules, each with where it comes from (docs/shed.md lists them too):
 * - `first_user`: the first message uses the user role ("messages: first message must use the
 *   \"user\" role"; mid-conversation system messages are never messages[0]).
 * - `role`: a message's role is user, assistant or system (the Messages API reference; system is
 *   "Mid-conversation system messages", platform.claude.com).
 * - `content`: a string or an array of content blocks (the Messages API reference).
 * - `non_empty`: "all messages must have non-empty content except for the optional final
 *   assistant message".
 * - `text`: "text content blocks must be non-empty" / "must contain non-whitespace text".
 * - `system_placement`: a system message follows a user turn (or an assistant turn ending in a
 *   server_tool_use) and is the last message or is followed by an assistant turn.
 * - `tool_use_answered`: "tool_use ids were found without tool_result blocks immediately after ...
 *   Each tool_use block must have a corresponding tool_result block in the next message", and
 *   "Messages following tool_use blocks must begin with a matching number of tool_result blocks".
 * - `tool_result_paired`: "unexpected tool_use_id found in tool_result blocks ... Each tool_result
 *   block must have a corresponding tool_use block in the previous message".
 * - `tool_use_role`, `tool_result_role`: tool_use blocks come from the assistant, tool_result
 *   blocks from the user (Handle tool calls, platform.claude.com).
 * - `unique_ids`: tool_use ids are unique in a request ("tool_use ids must be unique").
 * - `tool_use_input`: a tool_use block's `input` is an object ("messages.N.content.M.tool_use.input:
 *   Input should be a valid dictionary", anthropics/claude-code#6696); its keys and types are not
 *   checked against the tool's schema.
 * Consecutive user or assistant messages are allowed: "Consecutive user or assistant turns in
 * your request will be combined into a single turn" (the Messages API reference, `messages`).
 */

/** One broken rule: which, where, and what. */
export interface RuleViolation {
  readonly rule: string;
  readonly at: string;
  readonly detail: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonRecord = { [key: string]: Json };

const ROLES = new Set(['user', 'assistant', 'system']);

/** Every rule the request body breaks; empty when the Messages API would accept its messages. */
export function validateMessagesRequest(body: Uint8Array | string): RuleViolation[] {
  let parsed: Json;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)) as Json;
  } catch (error) {
    return [{ rule: 'json', at: 'body', detail: String(error) }];
  }
  if (!isRecord(parsed) || !Array.isArray(parsed['messages'])) return [{ rule: 'messages', at: 'body', detail: 'no messages array' }];
  const messages = parsed['messages'];
  if (messages.length === 0) return [{ rule: 'messages', at: 'messages', detail: 'empty' }];
  const violations: RuleViolation[] = [];
  const add = (rule: string, at: string, detail: string): void => void violations.push({ rule, at, detail });
  const shaped: Array<{ role: string; blocks: JsonRecord[]; content: Json }> = [];
  for (const [i, message] of messages.entries()) {
    const at = `messages.${i}`;
    if (!isRecord(message)) {
      add('role', at, 'not an object');
      shaped.push({ role: '?', blocks: [], content: null });
      continue;
    }
    const role = typeof message['role'] === 'string' ? message['role'] : '?';
    if (!ROLES.has(role)) add('role', at, `role ${JSON.stringify(message['role'])}`);
    const content = message['content'] ?? null;
    if (typeof content !== 'string' && !Array.isArray(content)) add('content', at, 'content is neither a string nor an array');
    const blocks = Array.isArray(content) ? content.filter(isRecord) : [];
    if (Array.isArray(content) && blocks.length !== content.length) add('content', at, 'a content block is not an object');
    const isFinalAssistant = i === messages.length - 1 && role === 'assistant';
    if ((content === '' || (Array.isArray(content) && content.length === 0)) && !isFinalAssistant) add('non_empty', at, 'empty content');
    checkTexts(blocks, at, add);
    shaped.push({ role, blocks, content });
  }
  if (shaped[0]!.role !== 'user') add('first_user', 'messages.0', `first message is ${shaped[0]!.role}`);
  checkSystemPlacement(shaped, add);
  checkToolPairs(shaped, add);
  return violations;
}

function checkTexts(blocks: readonly JsonRecord[], at: string, add: (rule: string, at: string, detail: string) => void): void {
  for (const [k, block] of blocks.entries()) {
    if (block['type'] === 'tool_use' && !isRecord(block['input']))
      add('tool_use_input', `${at}.content.${k}`, 'tool_use.input: Input should be a valid dictionary');
    if (block['type'] === 'text') {
      const text = block['text'];
      if (typeof text !== 'string' || text.trim() === '') add('text', `${at}.content.${k}`, 'text block without non-whitespace text');
    }
    if (block['type'] === 'tool_result' && Array.isArray(block['content'])) {
      checkTexts(block['content'].filter(isRecord), `${at}.content.${k}`, add);
    }
  }
}

function checkSystemPlacement(messages: ReadonlyArray<{ role: string; blocks: JsonRecord[] }>, add: (rule: string, at: string, detail: string) => void): void {
  for (let i = 0; i < messages.length; i++) {
    if (messages[i]!.role !== 'system') continue;
    const start = i;
    while (i + 1 < messages.length && messages[i + 1]!.role === 'system') i++;
    const before = messages[start - 1];
    const after = messages[i + 1];
    const lastBlock = before?.blocks[before.blocks.length - 1];
    const beforeOk = before !== undefined && (before.role === 'user' || (before.role === 'assistant' && lastBlock?.['type'] === 'server_tool_use'));
    if (!beforeOk) add('system_placement', `messages.${start}`, 'a system message does not follow a user turn');
    if (after !== undefined && after.role !== 'assistant')
      add('system_placement', `messages.${i}`, 'a system message is followed by neither an assistant turn nor the end');
  }
}

function checkToolPairs(messages: ReadonlyArray<{ role: string; blocks: JsonRecord[] }>, add: (rule: string, at: string, detail: string) => void): void {
  const seen = new Set<string>();
  for (const [i, message] of messages.entries()) {
    const at = `messages.${i}`;
    const uses = message.blocks.filter((b) => b['type'] === 'tool_use').map((b) => String(b['id']));
    const results = message.blocks.filter((b) => b['type'] === 'tool_result').map((b) => String(b['tool_use_id']));
    if (uses.length > 0 && message.role !== 'assistant') add('tool_use_role', at, 'tool_use outside an assistant message');
    if (results.length > 0 && message.role !== 'user') add('tool_result_role', at, 'tool_result outside a user message');
    for (const id of uses) {
      if (seen.has(id)) add('unique_ids', at, `tool_use id ${id} appears twice`);
      seen.add(id);
    }
    if (uses.length > 0) {
      const next = messages[i + 1];
      const leading: string[] = [];
      for (const block of next?.blocks ?? []) {
        if (block['type'] !== 'tool_result') break;
        leading.push(String(block['tool_use_id']));
      }
      const missing = uses.filter((id) => !leading.includes(id));
      if (next === undefined || next.role !== 'user' || missing.length > 0 || leading.length < uses.length) {
        add('tool_use_answered', at, `tool_use ids without tool_result blocks at the start of the next message: ${missing.join(', ') || '(count)'}`);
      }
    }
    if (results.length > 0) {
      const previous = messages[i - 1];
      const offered = new Set(previous?.role === 'assistant' ? previous.blocks.filter((b) => b['type'] === 'tool_use').map((b) => String(b['id'])) : []);
      const stray = results.filter((id) => !offered.has(id));
      if (stray.length > 0) add('tool_result_paired', at, `tool_result blocks without a tool_use in the previous message: ${stray.join(', ')}`);
    }
  }
}

function isRecord(value: Json | undefined): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
