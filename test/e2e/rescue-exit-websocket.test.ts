/**
 * `ctxshed rescue` exits as its command did when the command leaves a Responses WebSocket open
 * and exits (issue 41: Codex's code became 13, Node's code for a top-level await that never
 * settled). The command here is a tiny Node client that opens the WebSocket Codex opens, gets its
 * 101, and exits without a close frame: the kernel ends its TCP connection, as it does Codex's.
 */
import { describe, expect, it } from 'vitest';
import { runCtxshed } from '../support/cli-process.js';
import { tempStateDir } from '../support/test-proxy.js';

/** Opens `$ANTHROPIC_BASE_URL/v1/responses` as a WebSocket, then exits with `code` once it is accepted. */
function clientScript(code: number): string {
  return `
const net = require('node:net');
const url = new URL(process.env.ANTHROPIC_BASE_URL);
const socket = net.connect(Number(url.port), url.hostname, () => {
  socket.write('GET /v1/responses HTTP/1.1\\r\\nHost: ' + url.host + '\\r\\nConnection: Upgrade\\r\\nUpgrade: websocket\\r\\n' +
    'Sec-WebSocket-Version: 13\\r\\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\n\\r\\n');
});
let head = '';
socket.on('data', (d) => {
  head += d.toString('latin1');
  if (!head.includes('\\r\\n\\r\\n')) return;
  process.stdout.write(head.split('\\r\\n')[0] + '\\n');
  process.exit(${code});
});
socket.on('error', () => process.exit(99));
`;
}

describe('ctxshed rescue, a command that leaves a WebSocket open', () => {
  it.each([0, 7])('should exit %i, as the command did, after the proxy closes the socket the command left', async (code) => {
    const state = await tempStateDir();

    const result = await runCtxshed(['rescue', '--state', state, '--upstream', 'http://127.0.0.1:9', '--', process.execPath, '-e', clientScript(code)]);

    expect(result.stdout.trim(), result.stderr).toBe('HTTP/1.1 101 Switching Protocols');
    expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({ code, signal: null });
  });
});
