/** Small OpenAI request bodies with known answers (Responses and chat), for the core tests. */
import { utf8 } from '../bodies.js';

/** A `function_call` item and its `function_call_output` (or the custom pair when `custom`). */
export function responsesToolPair(i: number, output: unknown, custom = false): unknown[] {
  const callId = `call_${i}`;
  if (custom) {
    return [
      {
        type: 'custom_tool_call',
        id: `ctc_${i}`,
        status: 'completed',
        call_id: callId,
        name: 'exec',
        input: `text(await tools.exec_command({cmd: "cat f${i}"}))`,
      },
      output === undefined
        ? { type: 'custom_tool_call_output', call_id: callId }
        : { type: 'custom_tool_call_output', id: `ctco_${i}`, call_id: callId, output },
    ];
  }
  return [
    { type: 'function_call', id: `fc_${i}`, status: 'completed', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat f${i}` }), call_id: callId },
    output === undefined ? { type: 'function_call_output', call_id: callId } : { type: 'function_call_output', id: `fco_${i}`, call_id: callId, output },
  ];
}

/**
 * A Responses body shaped like Codex's: tools as a first item, a developer prompt, the user's
 * prompt, then for each output a call and its output (every third one a custom `exec` pair), then
 * a closing assistant message unless `closing: false`.
 */
export function responsesBody(outputs: readonly unknown[], options: { closing?: boolean; promptCacheKey?: string; prompt?: string } = {}): Uint8Array {
  const input: unknown[] = [
    { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }] },
    { type: 'message', id: 'msg_dev', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
    { type: 'message', id: 'msg_user', role: 'user', content: [{ type: 'input_text', text: options.prompt ?? 'Please look at the project.' }] },
  ];
  for (const [i, output] of outputs.entries()) input.push(...responsesToolPair(i, output, i % 3 === 2));
  if (options.closing ?? true) input.push({ type: 'message', id: 'msg_end', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] });
  const body: Record<string, unknown> = { model: 'gpt-test', stream: true, input, store: false };
  if (options.promptCacheKey !== undefined) body['prompt_cache_key'] = options.promptCacheKey;
  body['client_metadata'] = { turn: 1 };
  return utf8(JSON.stringify(body));
}

/**
 * A chat body: a system prompt, the user's prompt, then for each output an assistant tool call
 * and a `tool` message with it, then a closing user message unless `closing: false`.
 */
export function chatBody(outputs: readonly unknown[], options: { closing?: boolean; promptCacheKey?: string; prompt?: string } = {}): Uint8Array {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: options.prompt ?? 'Please look at the project.' },
  ];
  outputs.forEach((output, i) => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'shell', arguments: JSON.stringify({ cmd: `cat f${i}` }) } }],
    });
    messages.push(output === undefined ? { role: 'tool', tool_call_id: `call_${i}` } : { role: 'tool', tool_call_id: `call_${i}`, content: output });
  });
  if (options.closing ?? true) messages.push({ role: 'user', content: 'Go on.' });
  const body: Record<string, unknown> = { model: 'gpt-test', messages, stream: true, stream_options: { include_usage: true } };
  if (options.promptCacheKey !== undefined) body['prompt_cache_key'] = options.promptCacheKey;
  return utf8(JSON.stringify(body));
}
