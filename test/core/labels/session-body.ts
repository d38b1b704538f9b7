/** Request bodies made of named tool calls, for the label tests. */
import { utf8 } from '../bodies.js';

/** One tool call and its result. */
export interface Call {
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The result's text (a string content). */
  readonly result: string;
  readonly isError?: boolean;
}

/**
 * A Messages body: a prompt, then per call an assistant tool_use (id `toolu_<i>`) and a user
 * tool_result, then a closing user text, so no tool_result is in the last message.
 */
export function sessionBody(calls: readonly Call[], closing = 'Go on.'): Uint8Array {
  const messages: unknown[] = [{ role: 'user', content: 'Fix the double charge in the retry path.' }];
  calls.forEach((call, i) => {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: call.name, input: call.input }] });
    const result: Record<string, unknown> = { type: 'tool_result', tool_use_id: `toolu_${i}`, content: call.result };
    if (call.isError !== undefined) result['is_error'] = call.isError;
    messages.push({ role: 'user', content: [result] });
  });
  messages.push({ role: 'user', content: [{ type: 'text', text: closing }] });
  return utf8(JSON.stringify({ model: 'claude-test', max_tokens: 100, messages }));
}

/** `n` bytes of plain text, different per seed (over the 1 KiB eligibility floor when n > 1024). */
export function bulk(n: number, seed = 0): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  let s = `${seed}:`;
  for (let i = 0; s.length < n; i++) s += `${words[(i + seed) % words.length]} `;
  return s.slice(0, n);
}

/** A Read call of `path` (optionally a line range) returning `result`. */
export function read(path: string, result: string, range: { offset?: number; limit?: number } = {}): Call {
  return { name: 'Read', input: { file_path: path, ...range }, result };
}

/** A Bash call of `command` returning `result`. */
export function bash(command: string, result: string, isError?: boolean): Call {
  return isError === undefined
    ? { name: 'Bash', input: { command, description: 'run it' }, result }
    : { name: 'Bash', input: { command, description: 'run it' }, result, isError };
}
