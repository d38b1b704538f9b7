import { describe, expect, it } from 'vitest';
import { acceptKeyOf, checkUpgrade, switchingProtocols } from '../../../src/proxy/websocket/handshake.js';

const VALID = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

describe('the WebSocket handshake', () => {
  it("should derive RFC 6455's own example accept value", () => {
    // RFC 6455 §1.3: "dGhlIHNhbXBsZSBub25jZQ==" gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    expect(acceptKeyOf('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it("should accept Codex's upgrade, and answer it with no extension even though it offers permessage-deflate", () => {
    const check = checkUpgrade('GET', { ...VALID, 'sec-websocket-extensions': 'permessage-deflate; client_max_window_bits' });
    expect(check).toEqual({ kind: 'valid', accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=' });
    const answer = switchingProtocols('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(answer.startsWith('HTTP/1.1 101 Switching Protocols\r\n')).toBe(true);
    expect(answer.toLowerCase()).not.toContain('sec-websocket-extensions');
    expect(answer.endsWith('\r\n\r\n')).toBe(true);
  });

  it.each([
    ['a POST', 'POST', VALID],
    ['no Upgrade: websocket', 'GET', { ...VALID, upgrade: 'h2c' }],
    ['no Connection: Upgrade', 'GET', { ...VALID, connection: 'keep-alive' }],
    ['version 8', 'GET', { ...VALID, 'sec-websocket-version': '8' }],
    ['a short key', 'GET', { ...VALID, 'sec-websocket-key': 'c2hvcnQ=' }],
  ])('should refuse %s', (_name, method, headers) => {
    expect(checkUpgrade(method, headers).kind).toBe('invalid');
  });
});
