import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWholeFigures, type WholeFigureRow } from '../../src/replay/render-whole-figures.js';

const doc = fs.readFileSync(new URL('../../docs/economics.md', import.meta.url), 'utf8');
/**
 * The rows `ctxshed replay --whole-figures --json` printed on the shared transcripts (its command
 * inside): a replay of both at two windows takes minutes, so the fixture is made by that command
 * and this test checks the docs' table against it in milliseconds.
 */
const fixture = JSON.parse(fs.readFileSync(new URL('../fixtures/replay/whole-figures.json', import.meta.url), 'utf8')) as {
  command: string;
  rows: WholeFigureRow[];
};

describe('docs/economics.md', () => {
  it('should quote the whole-session table the command printed', () => {
    // Arrange
    const block = doc.split('<!-- whole-figures:begin -->\n')[1]?.split('<!-- whole-figures:end -->')[0];

    // Act
    const table = renderWholeFigures(fixture.rows, fixture.command);

    // Assert
    expect(block).toBe(table);
    expect(fixture.command).toBe('ctxshed replay --whole-figures 258c7280-ae70-4798-800f-63464d01a85d.jsonl ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl');
  });
});
