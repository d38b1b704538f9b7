/** Runs an MCP server on this process's stdin and stdout until the client is done with it. */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineTransport } from './line-transport.js';

/**
 * Resolves once stdin has ended and every request read before that has been answered, or when
 * stdout fails (the client went away). The SDK's stdio transport watches neither: without this a
 * client that writes its requests and closes stdin would lose the answers still being worked on.
 */
export async function serveStdio(server: Server): Promise<void> {
  // Not the SDK's StdioServerTransport: that one closes, and so ends the server, on a long line.
  const transport = new LineTransport(process.stdin, process.stdout, (line) => process.stderr.write(`${line}\n`));
  let open = 0;
  let ended = false;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const settle = (): void => {
    if (ended && open === 0) done();
  };
  process.stdout.on('error', () => done());
  process.stdin.on('end', () => {
    ended = true;
    settle();
  });
  await server.connect(transport);
  // Count requests in and answers out around what connect() installed.
  const receive = transport.onmessage;
  transport.onmessage = (...args: Parameters<NonNullable<typeof receive>>) => {
    if (isRequest(args[0])) open += 1;
    receive?.(...args);
  };
  const send = transport.send.bind(transport);
  transport.send = async (...args: Parameters<typeof send>) => {
    const [message] = args;
    await send(...args);
    if (isAnswer(message)) {
      open -= 1;
      settle();
    }
  };
  server.onclose = () => done();
  await finished;
  await server.close().catch(() => undefined);
}

function isRequest(message: JSONRPCMessage): boolean {
  return 'method' in message && 'id' in message;
}

function isAnswer(message: JSONRPCMessage): boolean {
  return !('method' in message) && 'id' in message;
}
