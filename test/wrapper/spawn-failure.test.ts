import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSpawnFailure } from '../../src/wrapper/spawn-failure.js';

const errno = (code: string): Error => Object.assign(new Error(`spawn foo ${code}`), { code });

describe('describeSpawnFailure', () => {
  it.each([
    { name: 'ENOENT', error: errno('ENOENT'), code: 127, message: 'command not found: foo' },
    { name: 'EACCES', error: errno('EACCES'), code: 126, message: 'permission denied: foo' },
    { name: 'ENOTDIR', error: errno('ENOTDIR'), code: 126, message: 'cannot run foo: ENOTDIR' },
    { name: 'E2BIG', error: errno('E2BIG'), code: 126, message: 'cannot run foo: E2BIG' },
    { name: 'an Error', error: new Error('boom'), code: 126, message: 'cannot run foo: boom' },
    { name: 'two lines', error: new Error('a\nb'), code: 126, message: 'cannot run foo: a b' },
    { name: 'a string', error: 'boom', code: 126, message: 'cannot run foo: boom' },
  ])('should map $name to $code', ({ error, code, message }) => {
    expect(describeSpawnFailure('foo', error)).toEqual({ code, message: `ctxshed: ${message}` });
  });

  it('should always give 126 or 127 and a single line, and never throw', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything({ withNullPrototype: true }), (command, error) => {
        const failure = describeSpawnFailure(command, error);
        expect([126, 127]).toContain(failure.code);
        expect(failure.message.startsWith('ctxshed: ')).toBe(true);
        expect(failure.message).not.toMatch(/[\r\n]/);
      }),
    );
  });
});
