/** Finds the ctxshed stubs a model sees in a request, the way a model reads them: from the text. */
import { parseStub } from '../core/index.js';
import { isRecord } from '../errors.js';

/** A stub as the model read it: what it stands for and the file it names. */
export interface SeenStub {
  readonly toolUseId: string;
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

// Where each stub version names the elided file: version 2 ("the full text is in …"), a
// version 3 pointer ("… read …") and a drop ("text kept in …").
const PATH_IN_STUB = /(?:the full text is in|read|text kept in) (.+?\/[0-9a-f]{64}\.txt)(?:, read that file| \(this output\)|;|\])/s;

/** Every stub in a parsed request body, in document order. */
export function stubsInRequest(body: unknown): SeenStub[] {
  const found: SeenStub[] = [];
  for (const block of toolResults(body)) {
    const content = block['content'];
    if (typeof content !== 'string') continue;
    const stub = parseStub(content);
    const path = stubFilePath(content);
    if (stub === undefined || path === undefined) continue;
    found.push({ toolUseId: String(block['tool_use_id']), path, sha256: stub.sha256, bytes: stub.bytes });
  }
  return found;
}

/** The elided file a stub's text names (any stub version), as a model reads it. */
export function stubFilePath(content: string): string | undefined {
  return PATH_IN_STUB.exec(content)?.[1];
}

/** The text of the tool_result answering `toolUseId`, when it is a plain string. */
export function toolResultText(body: unknown, toolUseId: string): string | undefined {
  const block = toolResults(body).find((b) => b['tool_use_id'] === toolUseId);
  return typeof block?.['content'] === 'string' ? block['content'] : undefined;
}

function toolResults(body: unknown): Array<Record<string, unknown>> {
  const messages = isRecord(body) && Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  return messages.flatMap((m) => {
    const content = isRecord(m) && Array.isArray(m['content']) ? (m['content'] as unknown[]) : [];
    return content.filter((b): b is Record<string, unknown> => isRecord(b) && b['type'] === 'tool_result');
  });
}
