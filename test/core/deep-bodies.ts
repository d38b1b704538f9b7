/** Bodies of the three APIs with what the deeper cut takes (large tool inputs, old assistant text), for the core tests. */
import { filler, utf8 } from './bodies.js';

/** The policy that takes every part over 100 bytes, and every old tool result over 100 bytes. */
export const DEEP_POLICY = {
  keepRecent: 1,
  minBytes: 100,
  deep: { parts: ['tool_input', 'assistant_text'] as const, inputMinBytes: 100, textMinBytes: 100 },
} as const;

/**
 * A Messages body: a prompt, then a Write (large `content`), an Edit (large `new_string`, small
 * `old_string`), a Bash with a long command, each with its text and answer, then a last turn.
 */
export function messagesDeepBody(options: { escaped?: boolean } = {}): Uint8Array {
  const content = options.escaped === true ? `line "one"\n\ttwo/é ${filler(300, 1)}` : filler(400, 1);
  const call = (id: string, name: string, input: Record<string, unknown>, text: string): unknown[] => [
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hm', signature: 'sig' },
        { type: 'text', text },
        { type: 'tool_use', id, name, input },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `done ${id} ${filler(200, 3)}` }] },
  ];
  const messages = [
    { role: 'user', content: 'Please write the project.' },
    ...call('toolu_w', 'Write', { file_path: '/p/a.ts', content }, `I will write it. ${filler(150, 2)}`),
    ...call('toolu_e', 'Edit', { file_path: '/p/a.ts', old_string: 'x', new_string: filler(250, 4) }, 'Short.'),
    ...call('toolu_b', 'Bash', { command: `cat <<'EOF' > /p/b.ts\n${filler(300, 5)}\nEOF`, description: 'write b' }, `Now b. ${filler(120, 6)}`),
    { role: 'user', content: [{ type: 'text', text: 'Go on.', cache_control: { type: 'ephemeral' } }] },
  ];
  return utf8(JSON.stringify({ model: 'claude-test', messages, system: 'sys', max_tokens: 100, stream: true }));
}

/** A Responses body: a function_call with large JSON arguments, a custom call with a large patch, assistant texts. */
export function responsesDeepBody(): Uint8Array {
  const input = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Write it.' }] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Writing. ${filler(150, 2)}` }] },
    {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `cat > f <<'EOF'\n${filler(300, 5)}\nEOF`, workdir: '/w', timeout_ms: 1000 }),
      call_id: 'call_1',
    },
    { type: 'function_call_output', call_id: 'call_1', output: `ok ${filler(200, 3)}` },
    { type: 'custom_tool_call', name: 'apply_patch', input: `*** Begin Patch\n${filler(300, 7)}\n*** End Patch`, call_id: 'call_2' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done!' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Both written. ${filler(150, 8)}` }] },
    { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'ls' }), call_id: 'call_3' },
    { type: 'function_call_output', call_id: 'call_3', output: 'f' },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
  ];
  return utf8(JSON.stringify({ model: 'gpt-test', input, stream: true, store: false }));
}

/** A chat body: an assistant text with a tool call of large JSON arguments, its answer, and a last turn. */
export function chatDeepBody(): Uint8Array {
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Write it.' },
    {
      role: 'assistant',
      content: `Writing. ${filler(150, 2)}`,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: JSON.stringify({ cmd: `printf '${filler(300, 5)}' > f` }) } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: `ok ${filler(200, 3)}` },
    { role: 'assistant', content: [{ type: 'text', text: `Written. ${filler(130, 4)}` }] },
    { role: 'user', content: 'Thanks.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'shell', arguments: '{"cmd":"ls"}' } }] },
    { role: 'tool', tool_call_id: 'call_2', content: 'f' },
  ];
  return utf8(JSON.stringify({ model: 'gpt-test', messages, stream: true }));
}
