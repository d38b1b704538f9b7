import { describe, expect, it } from 'vitest';
import { hasErrnoCode, StateError } from '../../src/state/state-error.js';

describe('StateError', () => {
  it('should carry a stable code, the message and the cause', () => {
    const cause = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const error = new StateError('STATE_UNWRITABLE', 'ctxshed: cannot use /x', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('StateError');
    expect(error.code).toBe('STATE_UNWRITABLE');
    expect(error.message).toBe('ctxshed: cannot use /x');
    expect(error.cause).toBe(cause);
  });
});

describe('hasErrnoCode', () => {
  it('should match a system error by its code', () => {
    const error = Object.assign(new Error('nope'), { code: 'ENOENT' });
    expect(hasErrnoCode(error, 'ENOENT')).toBe(true);
    expect(hasErrnoCode(error, 'EEXIST')).toBe(false);
    expect(hasErrnoCode('ENOENT', 'ENOENT')).toBe(false);
  });
});
