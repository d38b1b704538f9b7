/**
 * An independent check of the Chat Completions API's rules for what the deeper cut changes in a
 * request's `messages` (docs/openai.md), written from the API's own error wording, never from
 * ctxshed's splicer: JSON.parse and meaning only. Each refusal is a `400 invalid_request_error`.
 * - `arguments`: a tool call's `function.arguments` is a string ("Invalid type for
 *   'messages[N].tool_calls[K].function.arguments': expected a string, but got an object instead."),
 *   and, since the API may parse it, held here to the stricter reading: the JSON text of an object
 *   (the message for that case is ours: the API's was not found).
 * - `content`: an assistant message's `content` is a string, an array of parts, or null.
 */

/** One broken rule: which, where, and the message the 400 carries. */
export interface ChatViolation {
  readonly rule: 'arguments' | 'content';
  readonly param: string;
  readonly message: string;
}

/** Every rule the body's messages break, in order; empty when the API would accept them. */
export function validateChatMessages(body: Uint8Array | string): ChatViolation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return [];
  }
  const messages = isRecord(parsed) && Array.isArray(parsed['messages']) ? parsed['messages'] : [];
  const out: ChatViolation[] = [];
  for (const [m, message] of messages.entries()) {
    if (!isRecord(message) || message['role'] !== 'assistant') continue;
    const content = message['content'];
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) {
      out.push({
        rule: 'content',
        param: `messages[${m}].content`,
        message: `Invalid type for 'messages[${m}].content': expected one of a string or array of objects.`,
      });
    }
    const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    for (const [k, call] of calls.entries()) {
      const fn = isRecord(call) && isRecord(call['function']) ? call['function'] : {};
      const param = `messages[${m}].tool_calls[${k}].function.arguments`;
      const args = fn['arguments'];
      if (typeof args !== 'string')
        out.push({ rule: 'arguments', param, message: `Invalid type for '${param}': expected a string, but got ${typeof args} instead.` });
      else if (!isObjectText(args)) out.push({ rule: 'arguments', param, message: `Invalid '${param}': not the JSON text of an object.` });
    }
  }
  return out;
}

/** The first violation's 400 body, as the API writes it; undefined when there is none. */
export function chatRefusalBody(violations: readonly ChatViolation[]): string | undefined {
  const first = violations[0];
  if (first === undefined) return undefined;
  return JSON.stringify({ error: { message: first.message, type: 'invalid_request_error', param: first.param, code: 'invalid_type' } });
}

function isObjectText(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
