/**
 * The demo's model: the scripted Messages API (src/scripted/messages-api.ts) with the demo's
 * answers. It asks the client to run the pretend project's tools, so the session keeps growing;
 * once it sees a ctxshed stub, it asks the client to Read the file the stub names, and checks the
 * next request brings that text back intact. Usage comes from the API's prompt-cache model.
 */
import { isMessagesRequest, parseRequestBody, type ReceivedRequest } from '../scripted/received-request.js';
import { startMessagesApi } from '../scripted/messages-api.js';
import type { ReplyBlock } from '../scripted/message.js';
import type { MessageReply } from '../scripted/reply.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { toolCallFor } from './demo-workspace.js';
import { stubsInRequest, toolResultText, type SeenStub } from './stub-in-request.js';

const OUTPUT_TOKENS = 40;

/** The model's read-back of a stub's file: asked on one turn, checked on the next. */
export interface ReadBack {
  readonly askedAtCall: number;
  readonly stub: SeenStub;
  /** The tool_use id the model gave its Read. */
  readonly toolUseId: string;
  /** Set when the next request carried the answer. */
  checked?: { readonly atCall: number; readonly bytes: number; readonly sha256: string; readonly matched: boolean };
}

/** A running demo model. */
export interface DemoModel {
  readonly url: string;
  /** Model calls answered so far. */
  readonly calls: number;
  readonly readBack: ReadBack | undefined;
  close(): Promise<void>;
}

/** Starts the demo model on 127.0.0.1, any free port. */
export async function startDemoModel(): Promise<DemoModel> {
  let calls = 0;
  let readBack: ReadBack | undefined;

  const answer = (req: ReceivedRequest): MessageReply | undefined => {
    // count_tokens, HEAD and the rest get the API's own answers.
    if (!isMessagesRequest(req)) return undefined;
    calls += 1;
    const body = parseRequestBody(req);
    if (readBack !== undefined && readBack.checked === undefined) {
      const text = toolResultText(body, readBack.toolUseId);
      if (text !== undefined) {
        const sha256 = sha256Hex(Buffer.from(text, 'utf8'));
        readBack.checked = { atCall: calls, bytes: Buffer.byteLength(text), sha256, matched: sha256 === readBack.stub.sha256 };
      }
    }
    let content: ReplyBlock[];
    const stub = readBack === undefined ? stubsInRequest(body)[0] : undefined;
    if (stub !== undefined) {
      const id = toolUseId(calls);
      readBack = { askedAtCall: calls, stub, toolUseId: id };
      content = [
        { type: 'text', text: `An earlier result was moved out of the context; reading it back from ${stub.path}.` },
        { type: 'tool_use', id, name: 'Read', input: { file_path: stub.path } },
      ];
    } else {
      const call = toolCallFor(calls);
      content = [
        { type: 'text', text: call.name === 'Read' ? `Let me read ${call.input.file_path}.` : `Let me run \`${call.input.command}\`.` },
        { type: 'tool_use', id: toolUseId(calls), name: call.name, input: call.input },
      ];
    }
    return { kind: 'message', content, stopReason: 'tool_use', outputTokens: OUTPUT_TOKENS, id: `msg_01Demo${String(calls).padStart(6, '0')}` };
  };

  const api = await startMessagesApi({ respond: answer });
  return {
    url: api.url,
    get calls() {
      return calls;
    },
    get readBack() {
      return readBack;
    },
    close: () => api.close(),
  };
}

function toolUseId(call: number): string {
  return `toolu_01Demo${String(call).padStart(6, '0')}`;
}
