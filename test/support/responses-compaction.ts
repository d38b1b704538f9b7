/**
 * Remote compaction in the scripted Responses API, in the documented shapes (docs/openai.md,
 * "Remote compaction"):
 * - `POST /v1/responses/compact` takes `model` and `input` and answers a `response.compaction`
 *   object whose `output` is the compacted window: the input's user messages verbatim, then one
 *   `compaction` item (`id`, opaque `encrypted_content`);
 * - a `POST /v1/responses` whose last input item is `{"type":"compaction_trigger"}` is answered by
 *   exactly one `compaction` output item.
 * The client sends the `compaction` item back in later requests, byte for byte; this API reads
 * it back like the real one: an `encrypted_content` it did not write is refused.
 */
import { createHash } from 'node:crypto';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import type { OpenAiReply, OpenAiResponder, ResponsesUsage } from './responses-upstream.js';

const ENCRYPTED_PREFIX = 'gAAAAAcompaction.';

/** Wraps a responder: compaction requests are answered here, everything else by `responder`. */
export function withCompaction(responder: OpenAiResponder, isCompact: (req: ReceivedRequest) => boolean): OpenAiResponder {
  return (req) => {
    const body = parseRequestBody(req);
    const input = isRecord(body) ? body['input'] : undefined;
    const forged = Array.isArray(input) ? input.find((i) => isRecord(i) && i['type'] === 'compaction' && !isOurs(i)) : undefined;
    if (forged !== undefined) return invalid('Invalid encrypted_content in compaction item.');
    const compact = isCompact(req);
    if (compact || isTrigger(input)) {
      const problem = inputProblem(input);
      if (problem !== undefined) return invalid(problem);
      const items = input as Record<string, unknown>[];
      const usage = usageOf(req.body.length);
      const item = compactionItem(req.body);
      return compact ? { kind: 'response', output: [...items.filter(isUserMessage), item], usage } : { kind: 'response', output: [item], usage };
    }
    return responder(req);
  };
}

/** The `compaction` item the API writes for a request's bytes (the same request, the same item). */
export function compactionItem(requestBody: Uint8Array): Record<string, unknown> {
  const digest = createHash('sha256').update(requestBody).digest('hex');
  return { type: 'compaction', id: `cmp_${digest.slice(0, 24)}`, encrypted_content: `${ENCRYPTED_PREFIX}${digest}` };
}

/** The `response.compaction` object `/responses/compact` answers, from the scripted `response`. */
export function compactedObject(response: Record<string, unknown>): Record<string, unknown> {
  const { id, created_at, output, usage } = response;
  return { id: String(id).replace(/^resp_/, 'cmp_'), object: 'response.compaction', created_at, output, usage };
}

function isTrigger(input: unknown): boolean {
  const last = Array.isArray(input) ? input.at(-1) : undefined;
  return isRecord(last) && last['type'] === 'compaction_trigger';
}

function inputProblem(input: unknown): string | undefined {
  if (!Array.isArray(input)) return "'input' must be an array of items.";
  const bad = input.findIndex((i) => !isRecord(i) || (typeof i['type'] !== 'string' && typeof i['role'] !== 'string'));
  return bad === -1 ? undefined : `Invalid value for 'input[${bad}]'.`;
}

function isUserMessage(item: Record<string, unknown>): boolean {
  return item['role'] === 'user' && (item['type'] === undefined || item['type'] === 'message');
}

function isOurs(item: Record<string, unknown>): boolean {
  const content = item['encrypted_content'];
  return typeof content === 'string' && content.startsWith(ENCRYPTED_PREFIX);
}

function invalid(message: string): OpenAiReply {
  return { kind: 'raw', status: 400, body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'input', code: null } }) };
}

function usageOf(bytes: number): ResponsesUsage {
  const input = Math.ceil(bytes / 4);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 200,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + 200,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
