import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHost } from '../../src/proxy/loopback.js';

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.5', false],
    ['192.168.1.10', false],
    ['::ffff:10.0.0.5', false],
    ['fe80::1', false],
    ['128.0.0.1', false],
    ['127.0.0', false],
    ['', false],
    [undefined, false],
  ])('should say %s is loopback: %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1:8787', true],
    ['127.0.0.1', true],
    ['127.9.9.9:1', true],
    ['localhost', true],
    ['LOCALHOST:8787', true],
    ['localhost.:8787', true],
    ['[::1]:8787', true],
    ['[::1]', true],
  ])('should accept %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it.each([
    // DNS rebinding: a name that resolves to 127.0.0.1 still arrives with that name.
    ['evil.example'],
    ['evil.example:8787'],
    ['127.0.0.1.nip.io'],
    ['localhost.evil.example'],
    ['app.localhost'],
    ['10.0.0.5:8787'],
    ['127.0.0.256'],
    ['127.0.0.1:'],
    ['127.0.0.1:80:80'],
    ['127.0.0.1:port'],
    ['[::2]:8787'],
    ['[::1'],
    ['[::1]x'],
    [''],
    [undefined],
  ])('should refuse %s', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
