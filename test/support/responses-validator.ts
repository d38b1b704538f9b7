/**
 * An independent check of the Responses API's pairing rules for the `input` of a request, written
 * from the API's own 400 messages as its users quote them, not from ctxshed's span planner (which it
 * must never import). It parses with JSON.parse and looks only at meaning, never at bytes. Each
 * refusal is a `400` with `type: "invalid_request_error"`, `param: "input"`, `code: null`.
 *
 * The rules, each with where its message comes from:
 * - `output_paired`: a `function_call_output` needs an earlier `function_call` with its `call_id`:
 *   "No tool call found for function call output with call_id call_….", quoted whole with its
 *   400 body in continuedev/continue#10092 (and agentscope-ai/AgentTeams#299, binaricat/Netcatty#684).
 *   The same for a `custom_tool_call_output` and its `custom_tool_call` ("custom tool call output":
 *   the wording by analogy, not quoted anywhere searched).
 * - `call_answered`: a `function_call` needs a later output with its `call_id`: "No tool output found
 *   for function call call_….", quoted with its 400 body in tjardoo/openai-client#124; for a
 *   `custom_tool_call`, "No tool output found for custom tool call call_…." (Codex desktop through a
 *   gateway, diegosouzapw/OmniRoute#8946).
 * - The other call kinds Codex 0.171.0's `ResponseItem` enum has (`local_shell_call`,
 *   `tool_search_call`, `strings` on its binary) are held to the same two rules with their
 *   `*_output` items, by analogy: no quoted message was found for them.
 * - `reasoning_following`: a `reasoning` item must be followed by the item the model produced
 *   after it: "Item 'rs_…' of type 'reasoning' was provided without its required following item."
 *   (continuedev/continue#8933, its 400 body whole; openai/openai-node#1567, vercel/ai#7099). With
 *   no record of which item that was (an id this API did not write), the next item must at least be
 *   an output of the model (an assistant message or a call), not another reasoning item, an input
 *   or the end.
 * - `reasoning_required`: an item the model produced right after a reasoning item must come with
 *   it: "Item 'msg_…' of type 'message' was provided without its required 'reasoning' item."
 *   (continuedev/continue#12620). Only for ids this API wrote, since only those it can tie.
 * - `arguments`: a `function_call`'s `arguments` is a string, "Invalid type for 'input[N].arguments':
 *   expected a string, but got an object instead." (the API's `invalid_type` wording, param
 *   `input[N].arguments`); and since the API may parse it as the function's arguments, this check
 *   holds it to the stricter reading: a string that is not a JSON object is refused too (the real
 *   API's wording for that case was not found; the message below is ours).
 * - `custom_input`: a `custom_tool_call`'s `input` is a string, in the same `invalid_type` words.
 */

/** One broken rule: which, where, and the API's message for it. */
export interface ResponsesViolation {
  readonly rule: 'input' | 'output_paired' | 'call_answered' | 'reasoning_following' | 'reasoning_required' | 'arguments' | 'custom_input';
  readonly at: string;
  readonly message: string;
  /** The error's `param` and `code` where they are not `input` and null (a field's type). */
  readonly param?: string;
  readonly code?: string;
}

/** What the API remembers of its own answers: each reasoning item's id and the id of the item it wrote after it. */
export type ReasoningPairs = ReadonlyMap<string, string>;

type Item = Record<string, unknown>;

/** Call types and the output type that answers each, and how the API's message names them. */
const CALLS: ReadonlyMap<string, { readonly output: string; readonly noun: string }> = new Map([
  ['function_call', { output: 'function_call_output', noun: 'function call' }],
  ['custom_tool_call', { output: 'custom_tool_call_output', noun: 'custom tool call' }],
  ['local_shell_call', { output: 'local_shell_call_output', noun: 'local shell call' }],
  ['tool_search_call', { output: 'tool_search_output', noun: 'tool search call' }],
]);
const OUTPUTS: ReadonlyMap<string, string> = new Map([...CALLS].map(([call, { output }]) => [output, call]));
/** Items only the model writes: what may follow a reasoning item. */
const MODEL_ITEMS: ReadonlySet<string> = new Set([
  ...CALLS.keys(),
  'web_search_call',
  'file_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'computer_call',
  'mcp_call',
]);

/** Every pairing rule the request's `input` breaks, in input order; empty when the API would accept it. */
export function validateResponsesInput(body: Uint8Array | string, written: ReasoningPairs = new Map()): ResponsesViolation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    return [{ rule: 'input', at: 'body', message: `We could not parse the JSON body of your request. (${String(error)})` }];
  }
  const input = isRecord(parsed) ? parsed['input'] : undefined;
  if (typeof input === 'string') return [];
  if (!Array.isArray(input)) return [{ rule: 'input', at: 'input', message: "Missing required parameter: 'input'." }];
  const items = input.map((i) => (isRecord(i) ? i : {}));
  return [...pairingViolations(items), ...reasoningViolations(items, written), ...fieldViolations(items)].sort((a, b) => indexOf(a) - indexOf(b));
}

/** The first violation's 400 body, as the API writes it; undefined when there is none. */
export function refusalBody(violations: readonly ResponsesViolation[]): string | undefined {
  const first = violations[0];
  if (first === undefined) return undefined;
  return JSON.stringify({ error: { message: first.message, type: 'invalid_request_error', param: first.param ?? 'input', code: first.code ?? null } });
}

/** A call's `arguments` and a custom call's `input`: strings, the arguments a JSON object's text. */
function fieldViolations(items: readonly Item[]): ResponsesViolation[] {
  const out: ResponsesViolation[] = [];
  for (const [i, item] of items.entries()) {
    const type = typeOf(item);
    const field = type === 'function_call' ? 'arguments' : type === 'custom_tool_call' ? 'input' : undefined;
    if (field === undefined) continue;
    const value = item[field];
    const param = `input[${i}].${field}`;
    const rule = field === 'arguments' ? 'arguments' : 'custom_input';
    if (typeof value !== 'string') {
      const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
      out.push({ rule, at: `input[${i}]`, message: `Invalid type for '${param}': expected a string, but got ${got} instead.`, param, code: 'invalid_type' });
    } else if (field === 'arguments' && !isJsonObjectText(value)) {
      out.push({ rule, at: `input[${i}]`, message: `Invalid '${param}': not the JSON text of an object.`, param, code: 'invalid_value' });
    }
  }
  return out;
}

function isJsonObjectText(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function pairingViolations(items: readonly Item[]): ResponsesViolation[] {
  const out: ResponsesViolation[] = [];
  const seenCalls = new Set<string>();
  const answered = new Set<string>();
  for (const [i, item] of items.entries()) {
    const type = typeOf(item);
    const callId = typeof item['call_id'] === 'string' ? item['call_id'] : '';
    const answers = OUTPUTS.get(type);
    if (CALLS.has(type)) seenCalls.add(`${type}\u0000${callId}`);
    if (answers === undefined) continue;
    answered.add(`${answers}\u0000${callId}`);
    if (!seenCalls.has(`${answers}\u0000${callId}`)) {
      const noun = CALLS.get(answers)!.noun;
      out.push({ rule: 'output_paired', at: `input[${i}]`, message: `No tool call found for ${noun} output with call_id ${callId}.` });
    }
  }
  for (const [i, item] of items.entries()) {
    const type = typeOf(item);
    const call = CALLS.get(type);
    const callId = typeof item['call_id'] === 'string' ? item['call_id'] : '';
    if (call !== undefined && !answeredAfter(items, i, call.output, callId)) {
      out.push({ rule: 'call_answered', at: `input[${i}]`, message: `No tool output found for ${call.noun} ${callId}.` });
    }
  }
  return out;
}

function answeredAfter(items: readonly Item[], at: number, outputType: string, callId: string): boolean {
  for (let j = at + 1; j < items.length; j++) if (typeOf(items[j]!) === outputType && items[j]!['call_id'] === callId) return true;
  return false;
}

function reasoningViolations(items: readonly Item[], written: ReasoningPairs): ResponsesViolation[] {
  const out: ResponsesViolation[] = [];
  const requiredBy = new Map([...written].map(([rs, next]) => [next, rs]));
  for (const [i, item] of items.entries()) {
    const id = typeof item['id'] === 'string' ? item['id'] : '';
    const next = items[i + 1];
    if (typeOf(item) === 'reasoning') {
      const wanted = written.get(id);
      const ok = next !== undefined && (wanted === undefined ? isModelItem(next) : next['id'] === wanted);
      if (!ok)
        out.push({
          rule: 'reasoning_following',
          at: `input[${i}]`,
          message: `Item '${id}' of type 'reasoning' was provided without its required following item.`,
        });
    }
    const rs = requiredBy.get(id);
    if (rs !== undefined && id !== '' && (i === 0 || items[i - 1]!['id'] !== rs)) {
      out.push({
        rule: 'reasoning_required',
        at: `input[${i}]`,
        message: `Item '${id}' of type '${typeOf(item)}' was provided without its required 'reasoning' item.`,
      });
    }
  }
  return out;
}

function isModelItem(item: Item): boolean {
  const type = typeOf(item);
  return MODEL_ITEMS.has(type) || (type === 'message' && item['role'] === 'assistant');
}

function typeOf(item: Item): string {
  if (typeof item['type'] === 'string') return item['type'];
  return typeof item['role'] === 'string' ? 'message' : '';
}

function indexOf(v: ResponsesViolation): number {
  const m = /^input\[(\d+)\]$/.exec(v.at);
  return m === null ? -1 : Number(m[1]);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
