import { describe, expect, it } from 'vitest';
import { labelBlocks } from '../../../src/core/labels/label-blocks.js';
import { fromUtf8, mustIndex, sha256, utf8 } from '../bodies.js';
import { session } from './rules.js';
import { bash, bulk, read, type Call } from './session-body.js';

function labels(calls: readonly Call[], restoreTool?: boolean) {
  const s = session(calls);
  const input = { body: s.body, index: s.index, candidates: s.plan, sha256 };
  return labelBlocks(restoreTool === undefined ? input : { ...input, restoreTool });
}

describe('labelBlocks', () => {
  it('should label a session by its rules, each row naming its rule and a local score', () => {
    // Arrange
    const calls = [
      read('/src/pay.ts', bulk(2000, 1)), // 0: read again at 4
      bash('npm test', bulk(2000, 2), true), // 1: failed, passes at 5
      bash('cat .env', `${bulk(1500, 3)}\nSTRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n`), // 2: a secret
      { name: 'Grep', input: { pattern: 'retry', path: 'src' }, result: bulk(2000, 4) }, // 3: same text at 6
      read('/src/pay.ts', bulk(2000, 5)), // 4
      bash('npm test', bulk(2000, 6)), // 5
      { name: 'Glob', input: { pattern: '**/*.ts' }, result: bulk(2000, 4) }, // 6
    ];

    // Act
    const got = labels(calls).map((l) => [l.ordinal, l.tool, l.label, l.rule, l.score]);

    // Assert
    expect(got).toEqual([
      [0, 'Read', 'drop', 'superseded', 'local'],
      [1, 'Bash', 'drop', 'retried', 'local'],
      [2, 'Bash', 'drop', 'secret', 'local'],
      [3, 'Grep', 'drop', 'duplicate', 'local'],
      [4, 'Read', 'pointer', 'default', 'local'],
      [5, 'Bash', 'pointer', 'default', 'local'],
      [6, 'Glob', 'pointer', 'default', 'local'],
    ]);
  });

  it('should try the rules in order: secret first, then superseded, duplicate, retried', () => {
    // Arrange: block 0 is superseded, duplicated and holds a secret; block 1 is superseded and duplicated.
    const secret = `${bulk(1500)}\npassword="p4ssw0rd-x"\n`;
    const calls = [read('/a', secret), read('/a', bulk(2000, 1)), read('/a', bulk(2000, 1)), read('/a', secret)];

    // Act
    const rules = labels(calls).map((l) => l.rule);

    // Assert
    expect(rules.slice(0, 2)).toEqual(['secret', 'superseded']);
  });

  it('should name the main input, redacted and at most 160 characters', () => {
    // Arrange
    const long = `grep -r ${'x'.repeat(300)}`;
    const calls = [
      bash("curl -H 'Authorization: Bearer tok_9f2a7c31d4' https://api.example.com/charges", bulk(2000, 1)),
      bash(long, bulk(2000, 2)),
      { name: 'TodoWrite', input: {}, result: bulk(2000, 3) },
    ];

    // Act
    const inputs = labels(calls).map((l) => l.input);

    // Assert
    expect(inputs[0]).toBe("curl -H 'Authorization: Bearer [redacted]' https://api.example.com/charges");
    expect(Array.from(inputs[1] ?? '')).toHaveLength(160);
    expect(inputs[1]?.endsWith('…')).toBe(true);
    expect(inputs[2]).toBe('');
  });

  it('should route read-only tools to the same call, others to the file or to restore when offered', () => {
    // Arrange
    const calls = [read('/a', bulk(2000, 1)), bash('make', bulk(2000, 2)), { name: 'WebFetch', input: { url: 'https://x.dev' }, result: bulk(2000, 3) }];

    // Act
    const plain = labels(calls).map((l) => l.refetch);
    const withRestore = labels(calls, true).map((l) => l.refetch);

    // Assert
    expect(plain).toEqual(['same-call', 'elided-file', 'same-call']);
    expect(withRestore).toEqual(['same-call', 'restore', 'same-call']);
  });

  it('should call a tool unknown when no tool_use matches its id', () => {
    // Arrange: the tool_use's id no longer matches the tool_result's.
    const original = session([read('/a', bulk(2000, 1))]);
    const body = utf8(fromUtf8(original.body).replace('"id":"toolu_0"', '"id":"toolu_X"'));

    // Act
    const got = labelBlocks({ body, index: mustIndex(body), candidates: original.plan, sha256 });

    // Assert
    expect(got[0]?.tool).toBe('unknown');
    expect(got[0]?.refetch).toBe('elided-file');
  });

  it('should give the same labels for the same input (no hidden state)', () => {
    // Arrange
    const calls = [read('/a', bulk(2000, 1)), read('/a', bulk(2000, 2)), bash('x', bulk(2000, 3), true), bash('x', 'ok')];

    // Act
    const first = labels(calls);
    labels([bash('y', bulk(2000, 9))]);
    const again = labels(calls);

    // Assert
    expect(again).toEqual(first);
  });
});
