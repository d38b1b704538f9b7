import { describe, expect, it } from 'vitest';
import { findRetried } from '../../../src/core/labels/rule-retried.js';
import { session } from './rules.js';
import { bash, bulk, type Call } from './session-body.js';

const FAIL = bulk(2000, 7);

function retried(calls: readonly Call[]): number[] {
  const s = session(calls);
  return [...findRetried(s.index, s.calls, s.candidates)].sort((a, b) => a - b);
}

describe('findRetried', () => {
  it('should drop a failed command that later ran again with success', () => {
    expect(retried([bash('npm test', FAIL, true), bash('npm run build', 'ok'), bash('npm test', bulk(2000, 1), false)])).toEqual([0]);
  });

  it('should keep a failure that was never retried, or retried and failed again', () => {
    expect(retried([bash('npm test', FAIL, true), bash('npm test', bulk(2000, 1), true)])).toEqual([]);
  });

  it('should keep a failure whose later success was another command', () => {
    expect(retried([bash('npm test', FAIL, true), bash('npm test -- --run', 'ok')])).toEqual([]);
  });

  it('should keep a success, even when it ran again later', () => {
    expect(retried([bash('npm test', bulk(2000, 2)), bash('npm test', 'ok')])).toEqual([]);
  });

  it('should match on the tool too, and never on calls without a main input', () => {
    expect(
      retried([
        { name: 'Grep', input: { pattern: 'npm test' }, result: FAIL, isError: true },
        bash('npm test', 'ok'),
        { name: 'TodoWrite', input: {}, result: bulk(2000, 3), isError: true },
        { name: 'TodoWrite', input: {}, result: 'ok' },
      ]),
    ).toEqual([]);
  });
});
