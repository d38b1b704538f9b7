/**
 * The readable rendering of a shed span, `<state>/spans/<sha256>.md`: who said what, each tool
 * call with its input, each tool result. A pure function of the span's bytes, so the file is the
 * same whoever writes it. Every text goes in a fence longer than any backtick run inside it, so
 * nothing a message says can pass for the rendering's own structure.
 */
import { isRecord } from '../../errors.js';

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The markdown for a span's exact bytes (a comma-separated run of messages). Never throws. */
export function renderSpanMarkdown(span: Uint8Array, sha256: string): string {
  const head = `# ctxshed span ${sha256}\n\n`;
  let messages: unknown;
  try {
    messages = JSON.parse(`[${UTF8.decode(span)}]`);
  } catch {
    return `${head}These ${span.length} bytes do not read as messages; the exact bytes are in ${sha256}.json.\n`;
  }
  const list = Array.isArray(messages) ? messages : [];
  const parts = [
    `${head}${list.length} ${list.length === 1 ? 'message' : 'messages'} (${span.length} bytes) that ctxshed shed from a conversation, ` +
      `in order. The exact JSON is in ${sha256}.json next to this file.\n`,
  ];
  for (const [i, message] of list.entries()) parts.push(renderMessage(message, i + 1));
  return parts.join('\n');
}

function renderMessage(message: unknown, n: number): string {
  if (isRecord(message) && typeof message['type'] === 'string' && message['type'] !== 'message') return `## ${n}. ${message['type']}\n\n${renderItem(message)}`;
  const role = isRecord(message) && typeof message['role'] === 'string' ? message['role'] : 'unknown role';
  const content = isRecord(message) ? message['content'] : undefined;
  const body = typeof content === 'string' ? [fenced(content)] : Array.isArray(content) ? content.map(renderBlock) : [fenced(JSON.stringify(content) ?? '')];
  return `## ${n}. ${role}\n\n${body.join('\n')}`;
}

function renderBlock(block: unknown): string {
  if (!isRecord(block)) return fenced(JSON.stringify(block) ?? '', 'json');
  const type = typeof block['type'] === 'string' ? block['type'] : 'unknown';
  switch (type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return fenced(String(block['text'] ?? ''));
    case 'thinking':
      return `thinking:\n\n${fenced(String(block['thinking'] ?? ''))}`;
    case 'redacted_thinking':
      return '(redacted thinking)\n';
    case 'tool_use':
    case 'server_tool_use':
      return `tool call \`${String(block['name'] ?? '?')}\` (id ${String(block['id'] ?? '?')}), input:\n\n${fenced(JSON.stringify(block['input'] ?? null, null, 2), 'json')}`;
    case 'tool_result':
      return `tool result for ${String(block['tool_use_id'] ?? '?')}${block['is_error'] === true ? ' (error)' : ''}:\n\n${renderResultContent(block['content'])}`;
    case 'image':
    case 'document':
      return `(${type}${describeSource(block['source'])})\n`;
    default:
      return `${type} block:\n\n${fenced(JSON.stringify(block, null, 2), 'json')}`;
  }
}

/**
 * A Responses API input item that is not a message: a call with its arguments or input, a tool's
 * output, a reasoning item's summary; anything else as its JSON.
 */
function renderItem(item: Record<string, unknown>): string {
  const callId = typeof item['call_id'] === 'string' ? ` (call_id ${item['call_id']})` : '';
  switch (item['type']) {
    case 'function_call':
      return `tool call \`${String(item['name'] ?? '?')}\`${callId}, arguments:\n\n${fenced(String(item['arguments'] ?? ''), 'json')}`;
    case 'custom_tool_call':
      return `tool call \`${String(item['name'] ?? '?')}\`${callId}, input:\n\n${fenced(String(item['input'] ?? ''))}`;
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = item['output'];
      return `tool output${callId}:\n\n${Array.isArray(output) ? output.map(renderBlock).join('\n') : renderResultContent(output)}`;
    }
    case 'reasoning': {
      const summary = Array.isArray(item['summary']) ? item['summary'].map((p) => (isRecord(p) ? String(p['text'] ?? '') : '')).join('\n\n') : '';
      return `reasoning summary:\n\n${fenced(summary)}`;
    }
    default:
      return fenced(JSON.stringify(item, null, 2), 'json');
  }
}

function renderResultContent(content: unknown): string {
  if (content === undefined) return '(no content)\n';
  if (typeof content === 'string') return fenced(content);
  if (!Array.isArray(content)) return fenced(JSON.stringify(content) ?? '', 'json');
  return content.map(renderBlock).join('\n');
}

function describeSource(source: unknown): string {
  if (!isRecord(source)) return '';
  const media = typeof source['media_type'] === 'string' ? `, ${source['media_type']}` : '';
  const data = typeof source['data'] === 'string' ? `, ${source['data'].length} characters of data` : '';
  return `${media}${data}`;
}

/** The text in a fence of backticks longer than any run of them inside it. */
function fenced(text: string, info = ''): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}\n`;
}
