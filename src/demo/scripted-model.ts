/**
 * The demo's scripted model: a real `node:http` server on 127.0.0.1 speaking the Messages API.
 * It prices each request with a prompt-cache model (cache-pricing.ts) and answers with tool_use
 * blocks, so the client keeps working. Once it sees a ctxshed stub, it asks the client to Read
 * the file the stub names, and checks the next request brings that text back intact.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOPBACK } from '../proxy/start-proxy.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { BYTES_PER_TOKEN, priceRequest } from '../scripted/cache-pricing.js';
import { toolCallFor } from './demo-workspace.js';
import { encodeSse, type ModelBlock, type ModelMessage } from './sse-encode.js';
import { stubsInRequest, toolResultText, type SeenStub } from './stub-in-request.js';
import { errorText, isRecord } from '../errors.js';

/** The model name the demo client asks for and the model answers as. */
export const DEMO_MODEL = 'claude-sonnet-4-5-20250929';
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

/** A running scripted model. */
export interface ScriptedModel {
  readonly url: string;
  /** Model calls answered so far. */
  readonly calls: number;
  readonly readBack: ReadBack | undefined;
  close(): Promise<void>;
}

/** Starts the scripted model on 127.0.0.1, any free port. */
export async function startScriptedModel(): Promise<ScriptedModel> {
  let previous: Buffer | undefined;
  let calls = 0;
  let readBack: ReadBack | undefined;

  const answerModelCall = (raw: Buffer): { message: ModelMessage; stream: boolean } => {
    calls += 1;
    const body = JSON.parse(raw.toString('utf8')) as unknown;
    const usage = priceRequest(previous, raw);
    previous = raw;
    if (readBack !== undefined && readBack.checked === undefined) {
      const text = toolResultText(body, readBack.toolUseId);
      if (text !== undefined) {
        const sha256 = sha256Hex(Buffer.from(text, 'utf8'));
        readBack.checked = { atCall: calls, bytes: Buffer.byteLength(text), sha256, matched: sha256 === readBack.stub.sha256 };
      }
    }
    let content: ModelBlock[];
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
    const message: ModelMessage = {
      id: `msg_01Demo${String(calls).padStart(6, '0')}`,
      type: 'message',
      role: 'assistant',
      model: DEMO_MODEL,
      content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { ...usage, output_tokens: OUTPUT_TOKENS },
    };
    return { message, stream: isRecord(body) && body['stream'] === true };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = Buffer.concat(chunks);
        const pathname = (req.url ?? '/').split('?')[0];
        if (req.method === 'POST' && pathname === '/v1/messages') {
          const { message, stream } = answerModelCall(body);
          if (stream) send(res, 200, 'text/event-stream; charset=utf-8', encodeSse(message));
          else send(res, 200, 'application/json', JSON.stringify(message));
        } else if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
          send(res, 200, 'application/json', JSON.stringify({ input_tokens: Math.ceil(body.length / BYTES_PER_TOKEN) }));
        } else if (req.method === 'HEAD') {
          send(res, 200, 'text/plain', '');
        } else {
          sendError(res, 404, 'not_found_error', `the demo model does not serve ${req.method ?? ''} ${pathname ?? ''}`);
        }
      } catch (error) {
        sendError(res, 400, 'invalid_request_error', `the demo model could not read the request: ${errorText(error)}`);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${LOOPBACK}:${port}`,
    get calls() {
      return calls;
    },
    get readBack() {
      return readBack;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The proxy keeps its upstream connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}

function toolUseId(call: number): string {
  return `toolu_01Demo${String(call).padStart(6, '0')}`;
}

function send(res: http.ServerResponse, status: number, contentType: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(bytes.length) });
  res.end(bytes);
}

function sendError(res: http.ServerResponse, status: number, type: string, message: string): void {
  send(res, status, 'application/json', JSON.stringify({ type: 'error', error: { type, message } }));
}

