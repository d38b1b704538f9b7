/**
 * `ctxshed mcp`: a stdio MCP server with two read-only tools over one state directory, `restore`
 * and `spans`. stdout carries the protocol and nothing else: no banner, no log line.
 *
 * Built on the SDK's low-level `Server` with hand-written JSON Schemas: the high-level `McpServer`
 * takes zod schemas only, and zod is not a dependency of ctxshed.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorText, outwardMessage } from '../errors.js';
import type { StateDir } from '../state/layout.js';
import { renderRestore, RESTORE_TOOL, RESTORE_TOOL_NAME } from './restore-tool.js';
import { RoomLedger } from './room-ledger.js';
import { CHARS_PER_TOKEN } from './restore-why.js';
import { stateSource, type ToolSource } from './tool-source.js';
import { DEFAULT_SPANS_LIMIT, MAX_SPANS_LIMIT, renderSpans, SPANS_TOOL, SPANS_TOOL_NAME } from './spans-tool.js';
import { errorResult, type ToolText } from './tool-result.js';

/** The server's name: Claude Code calls its tools `mcp__ctxshed__restore` and `mcp__ctxshed__spans`. */
export const MCP_SERVER_NAME = 'ctxshed';

/** A server answering tools/list and tools/call for `state` (or a gateway's routes); connect it to a transport to run it. */
export function createMcpServer(from: StateDir | ToolSource, version: string): Server {
  const source = 'root' in from ? stateSource(from) : from;
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    {
      capabilities: { tools: {} },
      instructions:
        'ctxshed moves old tool results (or, in shed mode, spans of earlier messages) out of the context and leaves a stub naming a sha256. ' +
        'restore gives it back; spans lists what there is.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [RESTORE_TOOL, SPANS_TOOL] }));
  // One ledger a server, that is a client session: what restore gave since each conversation's last request (room-ledger.ts).
  const ledger = new RoomLedger();
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(source, request.params.name, request.params.arguments ?? {}, ledger));
  return server;
}

/**
 * One tools/call; `ledger` is what restore gave since each conversation's last request (a fresh one
 * knows of nothing given). Never throws: a failure is a tool-level error the model can read.
 */
export async function callTool(from: StateDir | ToolSource, name: string, args: Record<string, unknown>, ledger = new RoomLedger()): Promise<ToolText> {
  const source = 'root' in from ? stateSource(from) : from;
  try {
    switch (name) {
      case RESTORE_TOOL_NAME: {
        const handle = args['handle'];
        if (typeof handle !== 'string') return errorResult('ctxshed: restore needs a handle: the sha256 from the stub, or its first 12+ hex digits');
        const offset = args['offset'] ?? 0;
        if (!Number.isInteger(offset) || (offset as number) < 0) return errorResult('ctxshed: offset is a whole number of characters, 0 or more');
        const outcome = await source.restore(handle);
        // The room the conversation's window had at its last request, as the proxy wrote it
        // (window-room.ts), less what this tool gave since (room-ledger.ts).
        const room = outcome.kind === 'restored' ? ledger.left(await source.room(outcome.handle)) : undefined;
        const answer = renderRestore(outcome, offset as number, room);
        if (answer.isError !== true) ledger.note(room, Math.ceil(answer.content.reduce((n, c) => n + c.text.length, 0) / CHARS_PER_TOKEN));
        return answer;
      }
      case SPANS_TOOL_NAME: {
        const limit = args['limit'] ?? DEFAULT_SPANS_LIMIT;
        if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_SPANS_LIMIT) {
          return errorResult(`ctxshed: limit is a whole number from 1 to ${MAX_SPANS_LIMIT}`);
        }
        return renderSpans(await source.list(), limit as number);
      }
      default:
        return errorResult(`ctxshed: no tool named ${JSON.stringify(name)} (there are ${RESTORE_TOOL_NAME} and ${SPANS_TOOL_NAME})`);
    }
  } catch (error) {
    return errorResult(outwardMessage(`${name} failed: ${errorText(error)}`));
  }
}
