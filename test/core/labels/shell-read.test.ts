import { describe, expect, it } from 'vitest';
import { shellReadPathOf } from '../../../src/core/labels/shell-read.js';
import type { ToolCall } from '../../../src/core/read-tool-calls.js';

function exec(cmd: string, name = 'exec_command'): ToolCall {
  return { id: 'c', name, strings: [['cmd', cmd]], numbers: new Map() };
}

describe('shellReadPathOf', () => {
  it.each([
    ['cat notes.md', 'notes.md'],
    ['  cat   data/big-20k.txt ', 'data/big-20k.txt'],
    ["cat 'my notes.md'", 'my notes.md'],
    ['cat "my notes.md"', 'my notes.md'],
  ])('should read %j as a whole read of %j', (cmd, path) => {
    expect(shellReadPathOf(exec(cmd))).toBe(path);
  });

  it.each(['cat a b', 'cat -n f', 'cat f | head', 'cat f > g', 'cat $F', 'cat *.md', 'cat', 'less f', 'cat "a$b"'])(
    'should not take %j for a plain read',
    (cmd) => {
      expect(shellReadPathOf(exec(cmd))).toBeUndefined();
    },
  );

  it('should read only a shell tool', () => {
    expect(shellReadPathOf(exec('cat f', 'Bash'))).toBeUndefined();
  });
});
