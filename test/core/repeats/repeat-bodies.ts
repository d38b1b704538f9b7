/** Bodies with answers that bring stored text back, for the repeats' tests. */
import { renderRestore } from '../../../src/mcp/restore-tool.js';
import { readAsClaudeCode } from '../../../src/scripted/read-tool.js';
import { utf8 } from '../bodies.js';

/** A stored text's sha256 and its rendering (what restore and a Read of its `.md` give back). */
export const SPAN = 'e'.repeat(64);
export const RENDERING = `# ctxshed span ${SPAN}\n\n${Array.from({ length: 400 }, (_, i) => `line ${i + 1}: ${'word '.repeat(12)}`).join('\n')}\n`;

/** One call and its answer. */
export type Back = { readonly restore: number } | { readonly read: { offset?: number; limit?: number } } | { readonly file: string };

/** A restore answer at `offset` of the rendering, as `ctxshed mcp` gives it, at most `page` characters. */
export function restoreAnswer(offset: number): string {
  return renderRestore({ kind: 'restored', handle: SPAN, source: 'shed span', bytes: utf8('[]'), rendering: RENDERING }, offset).content[0]!.text;
}

/**
 * A Messages body: a prompt, then turns of calls (each turn's calls in one assistant message and
 * their answers in the next), then an assistant text. Ids are `t<turn>x<call>`.
 */
export function bodyOf(turns: ReadonlyArray<readonly Back[]>, dir = '/state'): Uint8Array {
  const messages: unknown[] = [{ role: 'user', content: 'Check your work.' }];
  turns.forEach((calls, t) => {
    const uses = calls.map((c, i) => {
      const id = `t${t}x${i}`;
      if ('restore' in c)
        return {
          id,
          name: 'mcp__ctxshed__restore',
          input: c.restore === 0 ? { handle: SPAN } : { handle: SPAN, offset: c.restore },
          answer: restoreAnswer(c.restore),
        };
      if ('read' in c)
        return { id, name: 'Read', input: { file_path: `${dir}/spans/${SPAN}.md`, ...c.read }, answer: readAsClaudeCode(RENDERING, c.read, 'current') };
      return { id, name: 'Read', input: { file_path: `/project/${c.file}` }, answer: readAsClaudeCode(`${c.file}\n`.repeat(200), {}, 'current') };
    });
    messages.push({ role: 'assistant', content: uses.map(({ id, name, input }) => ({ type: 'tool_use', id, name, input })) });
    messages.push({ role: 'user', content: uses.map(({ id, answer }) => ({ type: 'tool_result', tool_use_id: id, content: answer })) });
  });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'checked' }] });
  return utf8(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }));
}
