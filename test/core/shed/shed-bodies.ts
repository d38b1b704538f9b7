/** Small shed-mode request bodies with known answers: a session built turn by turn. */
import { readMessagesFacts } from '../../../src/core/shed/message-facts.js';
import type { MessageFacts } from '../../../src/core/shed/message-facts-type.js';
import { mustIndex, utf8 } from '../bodies.js';

export { sha256, mustIndex, utf8, fromUtf8 } from '../bodies.js';

/** A message as plain JSON. */
export type Message = { readonly role: string; readonly content: unknown; readonly [key: string]: unknown };

/** A user prompt (a string). */
export const prompt = (text: string): Message => ({ role: 'user', content: text });
/** An assistant message calling tools, optionally thinking first. */
export const calls = (ids: readonly string[], thinking = false): Message => ({
  role: 'assistant',
  content: [
    ...(thinking ? [{ type: 'thinking', thinking: 'hmm', signature: 'c2ln' }] : []),
    ...ids.map((id) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/${id}.ts` } })),
  ],
});
/** The user message answering tool calls. */
export const results = (ids: readonly string[], text = 'x'.repeat(200)): Message => ({
  role: 'user',
  content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: `${text} ${id}` })),
});
/** An assistant text reply. */
export const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** A body with these messages (and a model, a system and tools around them). */
export function bodyOf(messages: readonly Message[], model = 'claude-sonnet-4-5'): Uint8Array {
  return utf8(JSON.stringify({ model, messages, system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }], tools: [], stream: true }));
}

/**
 * A session: a first prompt, then `turns` tool turns (assistant call, user result), a reply and a
 * new prompt every `promptEvery` turns. Tool ids are t0, t1, ...
 */
export function session(turns: number, promptEvery = 0, thinking = false): Message[] {
  const messages: Message[] = [prompt('Please fix the parser.')];
  for (let t = 0; t < turns; t++) {
    messages.push(calls([`t${t}`], thinking), results([`t${t}`]));
    if (promptEvery > 0 && (t + 1) % promptEvery === 0) messages.push(reply(`Step ${t} done.`), prompt(`Now step ${t + 1}.`));
  }
  return messages;
}

/** The message facts of a body. */
export function factsOf(body: Uint8Array): MessageFacts[] {
  return readMessagesFacts(body, mustIndex(body));
}

/** The body with a breakpoint on the last block of the last message, as Claude Code sends it. */
export function withBreakpoint(messages: readonly Message[]): Message[] {
  const last = messages[messages.length - 1]!;
  const content = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : (last.content as Array<Record<string, unknown>>);
  const marked = [...content.slice(0, -1), { ...content[content.length - 1]!, cache_control: { type: 'ephemeral' } }];
  return [...messages.slice(0, -1), { role: last.role, content: marked }];
}

/**
 * A recent window for these small bodies: a little over the estimated tokens of the 6 newest tool
 * turns of session(10) (messages 9..20), so its span is 1..8 as with the old six-results window.
 */
export const SMALL_RECENT_TOKENS = 600;
