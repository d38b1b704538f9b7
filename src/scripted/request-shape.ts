/**
 * The Messages API's refusals of a request's blocks that a rewrite of old blocks could cause (the
 * deeper cut stubs strings inside tool_use inputs and assistant texts: docs/rescue.md), written
 * from the API's own 400 messages as its users quote them, never from the proxy's code (this file
 * imports nothing of src/core). Each is a `400 invalid_request_error`:
 * - a `tool_use` block whose `input` is not an object: "messages.N.content.M.tool_use.input: Input
 *   should be a valid dictionary" (anthropics/claude-code#6696, anthropics/anthropic-sdk-typescript#648);
 * - a `text` block with no text: "messages: text content blocks must be non-empty"
 *   (anthropics/claude-code#53473), and one of whitespace only: "messages: text content blocks must
 *   contain non-whitespace text" (anthropics/claude-code#23352).
 * The API does not check an earlier call's input against its tool's schema: only its type.
 */

type Json = Record<string, unknown>;

/** The API's message for the first block of `body` it refuses, or undefined when it refuses none. */
export function shapeRefusal(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body['messages'])) return undefined;
  for (const [m, message] of body['messages'].entries()) {
    if (!isRecord(message)) continue;
    const content = message['content'];
    if (!Array.isArray(content)) continue;
    for (const [k, block] of content.entries()) {
      const refused = blockRefusal(block, `messages.${m}.content.${k}`);
      if (refused !== undefined) return refused;
    }
  }
  return undefined;
}

function blockRefusal(block: unknown, at: string): string | undefined {
  if (!isRecord(block)) return undefined;
  if (block['type'] === 'tool_use' && !isRecord(block['input'])) return `${at}.tool_use.input: Input should be a valid dictionary`;
  if (block['type'] === 'text') return textRefusal(block['text']);
  // A tool_result's text blocks are text blocks too.
  if (block['type'] === 'tool_result' && Array.isArray(block['content'])) {
    for (const inner of block['content']) if (isRecord(inner) && inner['type'] === 'text') return textRefusal(inner['text']);
  }
  return undefined;
}

function textRefusal(text: unknown): string | undefined {
  if (typeof text !== 'string' || text === '') return 'messages: text content blocks must be non-empty';
  return text.trim() === '' ? 'messages: text content blocks must contain non-whitespace text' : undefined;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
