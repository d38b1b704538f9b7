import { afterEach, describe, expect, it } from 'vitest';
import { crashArmed, installCrashPort } from '../../src/state/crash-point.js';

describe('crash points', () => {
  afterEach(() => {
    delete process.env['CTXSHED_TEST_CRASH_AT'];
    installCrashPort({ armed: () => false });
  });

  it('should arm nothing in the product, whatever CTXSHED_TEST_CRASH_AT says, until a port is installed', () => {
    process.env['CTXSHED_TEST_CRASH_AT'] = 'latch-after-record';

    expect(crashArmed('latch-after-record')).toBe(false);

    installCrashPort({ armed: (name) => name === 'latch-after-record' });
    expect(crashArmed('latch-after-record')).toBe(true);
    expect(crashArmed('latch-after-all-files')).toBe(false);
  });
});
