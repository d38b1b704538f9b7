/**
 * A check of what ctxshed sent against what the client sent, written apart from the code it checks
 * (JSON.parse and meaning only, nothing of src/core): the deeper cut (docs/rescue.md) may replace a
 * string with a ctxshed stub only where a stub can stand for it, and nothing else may change.
 * - everything outside the transcript, and the transcript's count of messages or items and their
 *   roles and types, are the client's;
 * - a tool result's content may be a stub (a string beginning `[ctxshed: `);
 * - a tool call's input keeps every key and the type of every value: a changed value is a string
 *   that is now a tool input stub; an OpenAI call's `arguments` stay the JSON text of an object with
 *   the same keys and types, a custom call's `input` is a string;
 * - an assistant text may be an assistant text stub (never empty);
 * - on the Messages API, thinking blocks may be missing (an epoch on a prefix-check model removes
 *   them: docs/rescue.md "Preserved thinking"), never added or changed.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const INPUT_STUB = '[ctxshed: tool input moved out of the context; ';
const TEXT_STUB = '[ctxshed: assistant text moved out of the context; ';
const ANY_STUB = '[ctxshed: ';

/** The API a body speaks. */
export type CheckedApi = 'messages' | 'responses' | 'chat';

/** Every difference the deeper cut may not make; empty when `sent` is `client` with stubs where stubs may stand. */
export function deepCutViolations(client: Uint8Array | string, sent: Uint8Array | string, api: CheckedApi): string[] {
  const a = parse(client);
  const b = parse(sent);
  if (!isObj(a) || !isObj(b)) return ['a body is not a JSON object'];
  const key = api === 'responses' ? 'input' : 'messages';
  const out: string[] = [];
  const keysA = Object.keys(a).filter((k) => k !== key);
  const keysB = Object.keys(b).filter((k) => k !== key);
  if (!same(keysA, keysB) || keysA.some((k) => !same(a[k], b[k]))) out.push('something outside the transcript changed');
  const listA = Array.isArray(a[key]) ? (a[key] as Json[]) : [];
  const listB = Array.isArray(b[key]) ? (b[key] as Json[]) : [];
  if (listA.length !== listB.length) return [...out, `${key}: ${listA.length} entries became ${listB.length}`];
  for (const [i, was] of listA.entries()) {
    const now = listB[i]!;
    const at = `${key}[${i}]`;
    if (!isObj(was) || !isObj(now)) {
      if (!same(was, now)) out.push(`${at} changed`);
      continue;
    }
    out.push(...(api === 'messages' ? messageDiffs(was, now, at) : api === 'responses' ? itemDiffs(was, now, at) : chatDiffs(was, now, at)));
  }
  return out;
}

function messageDiffs(was: Obj, now: Obj, at: string): string[] {
  if (!sameExcept(was, now, ['content'])) return [`${at}: changed outside its content`];
  const assistant = was['role'] === 'assistant';
  if (!Array.isArray(was['content']) || !Array.isArray(now['content'])) return same(was['content'], now['content']) ? [] : [`${at}: content changed`];
  // A thinking block the output no longer has went with an epoch's removal; any other must stay.
  const kept = (was['content'] as Json[]).filter((blk) => {
    const thinking = isObj(blk) && (blk['type'] === 'thinking' || blk['type'] === 'redacted_thinking');
    return !thinking || (now['content'] as Json[]).some((n) => same(n, blk));
  });
  if (kept.length !== (now['content'] as Json[]).length) return [`${at}: blocks other than thinking went or came`];
  return kept.flatMap((blk, k) => blockDiffs(blk, (now['content'] as Json[])[k]!, `${at}.content[${k}]`, assistant));
}

function blockDiffs(was: Json, now: Json, at: string, assistant: boolean): string[] {
  if (same(was, now)) return [];
  if (!isObj(was) || !isObj(now) || was['type'] !== now['type']) return [`${at} changed`];
  if (was['type'] === 'tool_result')
    return sameExcept(was, now, ['content']) && isStub(now['content'], ANY_STUB) ? [] : [`${at}: not its content alone, as a stub`];
  if (was['type'] === 'tool_use')
    return sameExcept(was, now, ['input']) ? inputDiffs(was['input'], now['input'], `${at}.input`) : [`${at}: changed outside its input`];
  if (was['type'] === 'text' && assistant)
    return sameExcept(was, now, ['text']) && isStub(now['text'], TEXT_STUB) ? [] : [`${at}: not its text alone, as a stub`];
  return [`${at} changed`];
}

function itemDiffs(was: Obj, now: Obj, at: string): string[] {
  if (same(was, now)) return [];
  const type = was['type'] ?? (typeof was['role'] === 'string' ? 'message' : undefined);
  if (type === 'function_call_output' || type === 'custom_tool_call_output')
    return sameExcept(was, now, ['output']) && isStub(now['output'], ANY_STUB) ? [] : [`${at}: not its output alone, as a stub`];
  if (type === 'function_call')
    return sameExcept(was, now, ['arguments']) ? argumentDiffs(was['arguments'], now['arguments'], `${at}.arguments`) : [`${at} changed`];
  if (type === 'custom_tool_call') return sameExcept(was, now, ['input']) && isStub(now['input'], INPUT_STUB) ? [] : [`${at}: not its input alone, as a stub`];
  if (type === 'message' && was['role'] === 'assistant' && sameExcept(was, now, ['content']))
    return textsDiffs(was['content'], now['content'], `${at}.content`, 'output_text');
  return [`${at} changed`];
}

function chatDiffs(was: Obj, now: Obj, at: string): string[] {
  if (same(was, now)) return [];
  if (was['role'] === 'tool') return sameExcept(was, now, ['content']) && isStub(now['content'], ANY_STUB) ? [] : [`${at}: not its content alone, as a stub`];
  if (was['role'] !== 'assistant' || !sameExcept(was, now, ['content', 'tool_calls'])) return [`${at} changed`];
  const out = textsDiffs(was['content'] ?? null, now['content'] ?? null, `${at}.content`, 'text');
  const callsA = Array.isArray(was['tool_calls']) ? was['tool_calls'] : [];
  const callsB = Array.isArray(now['tool_calls']) ? now['tool_calls'] : [];
  if (callsA.length !== callsB.length) return [...out, `${at}.tool_calls changed`];
  for (const [k, call] of callsA.entries()) {
    const next = callsB[k]!;
    if (same(call, next)) continue;
    const fnA = isObj(call) ? call['function'] : undefined;
    const fnB = isObj(next) ? next['function'] : undefined;
    if (!isObj(call) || !isObj(next) || !sameExcept(call, next, ['function']) || !isObj(fnA) || !isObj(fnB) || !sameExcept(fnA, fnB, ['arguments'])) {
      out.push(`${at}.tool_calls[${k}] changed`);
      continue;
    }
    out.push(...argumentDiffs(fnA['arguments'], fnB['arguments'], `${at}.tool_calls[${k}].function.arguments`));
  }
  return out;
}

/** An assistant's texts: a string, or parts of `partType` whose `text` may be a stub. */
function textsDiffs(was: Json | undefined, now: Json | undefined, at: string, partType: string): string[] {
  if (same(was, now)) return [];
  if (typeof was === 'string') return isStub(now, TEXT_STUB) ? [] : [`${at}: not its text alone, as a stub`];
  if (!Array.isArray(was) || !Array.isArray(now) || was.length !== now.length) return [`${at} changed`];
  return was.flatMap((p, k) => {
    const q = now[k]!;
    if (same(p, q)) return [];
    return isObj(p) && isObj(q) && p['type'] === partType && sameExcept(p, q, ['text']) && isStub(q['text'], TEXT_STUB) ? [] : [`${at}[${k}] changed`];
  });
}

/** JSON text of arguments: both parse to objects whose differences are strings made stubs. */
function argumentDiffs(was: Json | undefined, now: Json | undefined, at: string): string[] {
  if (typeof was !== 'string' || typeof now !== 'string') return [`${at} is not a string`];
  const a = parse(was);
  const b = parse(now);
  if (!isObj(b)) return [`${at} is not the JSON text of an object`];
  return inputDiffs(a, b, at);
}

/** A tool input: the same keys and types all the way down, a changed value only a string made a tool input stub. */
function inputDiffs(was: Json | undefined, now: Json | undefined, at: string): string[] {
  if (same(was, now)) return [];
  if (typeof was === 'string') return isStub(now, INPUT_STUB) ? [] : [`${at}: changed, not to a tool input stub`];
  if (Array.isArray(was)) {
    if (!Array.isArray(now) || now.length !== was.length) return [`${at}: not the same array`];
    return was.flatMap((v, k) => inputDiffs(v, now[k], `${at}[${k}]`));
  }
  if (isObj(was)) {
    if (!isObj(now) || !same(Object.keys(was), Object.keys(now))) return [`${at}: not the same keys`];
    return Object.keys(was).flatMap((k) => inputDiffs(was[k], now[k], `${at}.${k}`));
  }
  return [`${at}: a ${typeof was} changed`];
}

function isStub(value: Json | undefined, prefix: string): boolean {
  return typeof value === 'string' && value.startsWith(prefix) && value.endsWith(']');
}

function sameExcept(a: Obj, b: Obj, keys: readonly string[]): boolean {
  const ka = Object.keys(a).filter((k) => !keys.includes(k));
  const kb = Object.keys(b).filter((k) => !keys.includes(k));
  return same(ka, kb) && ka.every((k) => same(a[k], b[k])) && keys.every((k) => k in a === k in b);
}

function same(a: Json | undefined | readonly string[], b: Json | undefined | readonly string[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function parse(body: Uint8Array | string): Json | undefined {
  try {
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)) as Json;
  } catch {
    return undefined;
  }
}

function isObj(value: Json | undefined): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
