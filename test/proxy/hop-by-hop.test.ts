import { describe, expect, it } from 'vitest';
import { forwardableHeaders, HOP_BY_HOP_HEADERS } from '../../src/proxy/hop-by-hop.js';

describe('forwardableHeaders', () => {
  it('should drop every hop-by-hop header, host and content-length from rawHeaders', () => {
    const raw = [
      'Host',
      '127.0.0.1:8787',
      'Connection',
      'keep-alive',
      'Keep-Alive',
      'timeout=5',
      'Proxy-Connection',
      'keep-alive',
      'Transfer-Encoding',
      'chunked',
      'TE',
      'trailers',
      'Trailer',
      'X-Checksum',
      'Upgrade',
      'h2c',
      'Proxy-Authenticate',
      'Basic',
      'Proxy-Authorization',
      'Basic Zm9v',
      'Content-Length',
      '12',
      'X-Api-Key',
      'sk-ant-test-000',
    ];

    const out = forwardableHeaders(raw);

    expect({ ...out }).toEqual({ 'X-Api-Key': 'sk-ant-test-000' });
  });

  it('should drop the headers named in Connection, case-insensitively, across repeated Connection lines', () => {
    const raw = ['connection', 'X-Foo , x-bar', 'Connection', 'X-Baz', 'x-foo', '1', 'X-BAR', '2', 'x-baz', '3', 'x-kept', '4'];

    expect({ ...forwardableHeaders(raw) }).toEqual({ 'x-kept': '4' });
  });

  it('should keep original casing and order, and join repeated names into one array', () => {
    const raw = ['anthropic-version', '2023-06-01', 'Anthropic-Beta', 'a', 'X-App', 'cli', 'anthropic-beta', 'b'];

    const out = forwardableHeaders(raw);

    expect(Object.keys(out)).toEqual(['anthropic-version', 'Anthropic-Beta', 'X-App']);
    expect(out['Anthropic-Beta']).toEqual(['a', 'b']);
  });

  it('should keep content-length when asked, for a body that passes through unchanged', () => {
    expect({ ...forwardableHeaders(['Content-Length', '42', 'Host', 'x'], { keepContentLength: true }) }).toEqual({ 'Content-Length': '42' });
  });

  it('should accept an IncomingHttpHeaders object, spreading array values', () => {
    const out = forwardableHeaders({ host: 'x', connection: 'x-foo', 'x-foo': '1', 'set-cookie': ['a=1', 'b=2'], 'x-api-key': 'k', 'x-none': undefined });

    expect({ ...out }).toEqual({ 'set-cookie': ['a=1', 'b=2'], 'x-api-key': 'k' });
  });

  it('should treat a header named __proto__ as a header, not a prototype', () => {
    const out = forwardableHeaders(['__proto__', 'v', 'x-a', '1']);

    expect(Object.keys(out)).toEqual(['__proto__', 'x-a']);
    expect(out['__proto__']).toBe('v');
  });

  it('should list the RFC 9110 hop-by-hop headers in lower case', () => {
    expect([...HOP_BY_HOP_HEADERS].sort()).toEqual([
      'connection',
      'keep-alive',
      'proxy-authenticate',
      'proxy-authorization',
      'proxy-connection',
      'te',
      'trailer',
      'transfer-encoding',
      'upgrade',
    ]);
  });
});
