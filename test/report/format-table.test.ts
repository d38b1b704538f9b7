import { describe, expect, it } from 'vitest';
import { droppedNote, fitTable, oneLine, promptForDisplay, renderTable, truncate, wrapText, type Column } from '../../src/report/format-table.js';

describe('renderTable', () => {
  it('should align columns left or right under their headers', () => {
    const lines = renderTable(
      [{ header: 'KEY' }, { header: 'N', align: 'right' }],
      [
        ['abc', '5'],
        ['a', '120'],
      ],
    );

    expect(lines).toEqual(['KEY    N', 'abc    5', 'a    120']);
  });

  it('should shrink the flex column so every line fits the width', () => {
    const rows = [['k1', 'x'.repeat(300), '12']];

    const lines = renderTable([{ header: 'KEY' }, { header: 'PROMPT', flex: true }, { header: 'N', align: 'right' }], rows, 40);

    expect(lines.every((l) => l.length <= 40)).toBe(true);
    expect(lines[1]).toMatch(/^k1   x+…  12$/);
  });

  it('should put every cell on one line, whatever the text holds', () => {
    const lines = renderTable([{ header: 'PROMPT' }], [['line one\nline two\tend\u001b[2J']]);

    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('line one line two end?[2J');
  });
});

describe('truncate', () => {
  it('should cut to the width with an ellipsis, never inside a surrogate pair', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('😀😀😀😀😀', 3)).toBe('😀😀…');
  });
});

describe('oneLine', () => {
  it('should fold whitespace and replace control characters', () => {
    expect(oneLine('  a \r\n b\u0007 ')).toBe('a b?');
  });
});

describe('wrapText', () => {
  it('should break at spaces under a label, indenting the rest', () => {
    expect(wrapText('one two three four', 14, 'p: ', '   ')).toEqual(['p: one two', '   three four']);
  });

  it('should cut a word longer than a line', () => {
    expect(wrapText('x'.repeat(30), 10, 'p: ', '   ')).toEqual(['p: xxxxxx…']);
  });
});

describe('promptForDisplay', () => {
  it("should drop the system reminders before the user's words", () => {
    expect(promptForDisplay('<system-reminder>Today is a day.</system-reminder> Read\nsrc/')).toBe('Read src/');
    expect(promptForDisplay('<system-reminder>\na\n</system-reminder> <system-reminder>b</system-reminder> Fix it')).toBe('Fix it');
  });

  it('should keep a prompt that is nothing but reminders, or a reminder cut short', () => {
    expect(promptForDisplay('<system-reminder>only</system-reminder>')).toBe('<system-reminder>only</system-reminder>');
    expect(promptForDisplay('<system-reminder>Available agent types for…')).toBe('<system-reminder>Available agent types for…');
  });
});

describe('fitTable', () => {
  const columns: Column[] = [
    { header: 'KEY' },
    { header: 'SEEN', align: 'right', drop: 1 },
    { header: 'BLOCKS', align: 'right', drop: 2 },
    { header: 'PROMPT', flex: true, min: 10, wrap: 2 },
  ];
  const rows = [['k1', '3m ago', '11', 'Read the files under src/ and explain the cache module to me']];

  it('should show every column where the table fits, the prompt whole', () => {
    const { lines, dropped } = fitTable(columns, rows, 200);

    expect(lines).toEqual(['KEY    SEEN  BLOCKS  PROMPT', 'k1   3m ago      11  Read the files under src/ and explain the cache module to me']);
    expect(dropped).toEqual([]);
  });

  it('should leave out the highest drop first while the prompt would get less than its least', () => {
    expect(fitTable(columns, rows, 30)).toEqual({
      lines: ['KEY    SEEN  PROMPT', 'k1   3m ago  Read the files', '             under src/ and e…'],
      dropped: ['BLOCKS'],
    });
    expect(fitTable(columns, rows, 20).dropped).toEqual(['SEEN', 'BLOCKS']);
  });

  it('should wrap the flex column at spaces onto its lines, then cut it', () => {
    const { lines } = fitTable(columns, rows, 50);

    expect(lines.slice(1)).toEqual(['k1   3m ago      11  Read the files under src/ and', '                     explain the cache module to …']);
    expect(droppedNote(['SEEN', 'BLOCKS'])).toEqual(['(left out at this width: SEEN, BLOCKS; --json has every column)']);
    expect(droppedNote([])).toEqual([]);
  });
});
