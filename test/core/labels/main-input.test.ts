import { describe, expect, it } from 'vitest';
import { filePathOf, mainInputOf, truncateChars } from '../../../src/core/labels/main-input.js';
import type { ToolCall } from '../../../src/core/read-tool-calls.js';

function call(name: string, strings: Array<[string, string]>): ToolCall {
  return { id: 't', name, strings, numbers: new Map() };
}

describe('mainInputOf', () => {
  it.each([
    ['Read', [['file_path', '/src/a.ts']], '/src/a.ts'],
    ['Write', [['file_path', '/src/b.ts']], '/src/b.ts'],
    ['Edit', [['file_path', '/src/c.ts']], '/src/c.ts'],
    [
      'NotebookEdit',
      [
        ['notebook_path', '/n.ipynb'],
        ['cell_id', 'x'],
      ],
      '/n.ipynb',
    ],
    [
      'Bash',
      [
        ['description', 'Run tests'],
        ['command', 'npm test'],
      ],
      'npm test',
    ],
    [
      'Grep',
      [
        ['pattern', 'TODO'],
        ['path', 'src'],
      ],
      'TODO in src',
    ],
    ['Glob', [['pattern', '**/*.ts']], '**/*.ts'],
    [
      'WebFetch',
      [
        ['prompt', 'Summarise'],
        ['url', 'https://example.com/a'],
      ],
      'https://example.com/a',
    ],
    ['WebSearch', [['query', 'vitest each']], 'vitest each'],
    [
      'Task',
      [
        ['description', 'Find the bug'],
        ['prompt', 'long...'],
      ],
      'Find the bug',
    ],
  ] as Array<[string, Array<[string, string]>, string]>)('should name a %s call by its main field', (name, strings, expected) => {
    // Arrange, Act
    const input = mainInputOf(call(name, strings));

    // Assert
    expect(input).toBe(expected);
  });

  it('should take the first short string field of another tool, else its first string field', () => {
    // Arrange
    const long = 'L'.repeat(200);

    // Act
    const short = mainInputOf(
      call('mcp__gh__issue', [
        ['body', long],
        ['title', 'Crash on start'],
      ]),
    );
    const onlyLong = mainInputOf(call('mcp__gh__issue', [['body', long]]));

    // Assert
    expect(short).toBe('Crash on start');
    expect(onlyLong).toBe(long);
  });

  it('should give undefined when the main field is missing or there is no string field', () => {
    // Arrange, Act, Assert
    expect(mainInputOf(call('Read', [['other', 'x']]))).toBeUndefined();
    expect(mainInputOf(call('Grep', [['path', 'src']]))).toBeUndefined();
    expect(mainInputOf(call('TodoWrite', []))).toBeUndefined();
  });
});

describe('filePathOf', () => {
  it('should give the path of file tools only', () => {
    // Arrange, Act, Assert
    expect(filePathOf(call('Read', [['file_path', '/a']]))).toBe('/a');
    expect(filePathOf(call('NotebookEdit', [['notebook_path', '/n']]))).toBe('/n');
    expect(filePathOf(call('Bash', [['file_path', '/a']]))).toBeUndefined();
  });
});

describe('truncateChars', () => {
  it('should keep a text of at most the limit as it is', () => {
    expect(truncateChars('abc', 3)).toBe('abc');
    expect(truncateChars('x'.repeat(160))).toBe('x'.repeat(160));
  });

  it('should cut a longer text to the limit, the last character an ellipsis', () => {
    // Arrange, Act
    const cut = truncateChars('x'.repeat(161));

    // Assert
    expect(cut).toBe(`${'x'.repeat(159)}…`);
    expect(Array.from(cut)).toHaveLength(160);
  });

  it('should count code points, so a surrogate pair is never split', () => {
    // Arrange: 100 emoji are 200 UTF-16 units but 100 characters.
    const emoji = '😀'.repeat(100);

    // Act, Assert
    expect(truncateChars(emoji, 100)).toBe(emoji);
    expect(truncateChars(emoji, 10)).toBe(`${'😀'.repeat(9)}…`);
  });
});

describe('mainInputOf, Codex calls', () => {
  it("should take `exec_command`'s `cmd`, whatever field comes first", () => {
    expect(
      mainInputOf(
        call('exec_command', [
          ['workdir', '/p'],
          ['cmd', 'cat data/big-20k.txt'],
        ]),
      ),
    ).toBe('cat data/big-20k.txt');
  });

  it("should take the first line of `exec`'s code, skipping blank ones", () => {
    const code = '\nconst r = await tools.exec_command({cmd: "cat notes-6k.md"});\ntext(r.output);\n';

    expect(mainInputOf(call('exec', [['input', code]]))).toBe('const r = await tools.exec_command({cmd: "cat notes-6k.md"});');
  });
});
