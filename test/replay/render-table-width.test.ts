/**
 * The replay's text fits the width it is given (issue 29): each table in full where it fits, in
 * its compact form where not (or with --compact), plain column names, a legend, and a total across
 * the files; no line longer than the width.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { renderTable } from '../../src/replay/render-table.js';
import { replaySession } from '../../src/replay/replay-session.js';
import { wrapLine } from '../../src/replay/text-layout.js';
import { withWholeSession, type WholeSessionReport } from '../../src/replay/whole-session-figures.js';
import { textWidth } from '../../src/cli/replay-input.js';
import { fixtureLines } from './fixtures.js';

let dir: string;
let reports: WholeSessionReport[];

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'replay-width-'));
  reports = [];
  for (const name of ['subagent.jsonl', 'tool_heavy.jsonl']) {
    const report = await replaySession(name, rebuildConversations(fixtureLines(name), name), {
      settings: { threshold: 0.7, keepRecent: 2, minBytes: 1024, window: 60_000 },
      stateDir: path.join(dir, name, 'state'),
      shedStateDir: path.join(dir, name, 'shed'),
    });
    // The session never compacted: its whole-session replay is the same replay.
    reports.push(withWholeSession(report, report, { compactions: 0, estimated: 0 }));
  }
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

function longest(text: string): number {
  return Math.max(...text.split('\n').map((l) => l.length));
}

describe('renderTable at a width', () => {
  it('should fit 80 columns with the compact tables and a total across the files', () => {
    // Act
    const text = renderTable(reports, { width: 80, compact: false });

    // Assert
    expect(longest(text)).toBeLessThanOrEqual(80);
    expect(text).toMatch(/ {2}strategy +runway +cost \$ +vs recorded +vs never +refused\n/);
    expect(text).toMatch(/ {2}strategy +peak +last +runway +vs recorded +refused +cost \$ +epochs\n/);
    expect(text).toMatch(/ {2}total \(2 files\) +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d +[+-]\d+\.\d%/);
    expect(text).toContain('runway: requests answered before the client would compact');
  });

  it('should print the full tables and sparklines at 200 columns, still within the width', () => {
    // Act
    const text = renderTable(reports, { width: 200, compact: false });

    // Assert
    expect(longest(text)).toBeLessThanOrEqual(200);
    expect(text).toContain('vs never compacting');
    expect(text).toContain('thinking kept/removed (last)');
    expect(text).toMatch(/ctxshed rescue .*[▁▂▃▄▅▆▇█]/);
    expect(text).toMatch(/ {2}session +requests +paid \$ +recorded \$ +never compacting \$/);
  });

  it('should print the compact form at any width when asked', () => {
    // Act
    const text = renderTable(reports, { width: 200, compact: true });

    // Assert
    expect(text).not.toContain('vs never compacting  cache writes vs recorded');
    expect(text).toMatch(/ {2}strategy +runway +cost \$ +vs recorded +vs never +refused\n/);
  });

  it('should use plain words: no jargon column, KiB where 1024 is meant', () => {
    // Act
    const text = renderTable(reports, { width: 400, compact: false });

    // Assert
    for (const jargon of ['x rec', 'uncached', 'rescued', 'tokens/byte fitted', ' KB']) expect(text).not.toContain(jargon);
    expect(text).toContain('KiB kept out');
  });
});

describe('wrapLine', () => {
  it('should break at spaces, indent the rest, and cut a word longer than the room', () => {
    // Act
    const lines = wrapLine(`  ${'a'.repeat(30)} bb cc ${'d'.repeat(50)}`, 20);

    // Assert
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(20);
    expect(lines.join('').replace(/ /g, '')).toBe(`${'a'.repeat(30)}bbcc${'d'.repeat(50)}`);
    expect(lines[1]?.startsWith('    ')).toBe(true);
  });
});

describe('textWidth', () => {
  it("should take the terminal's width, else COLUMNS, else a fixed width, never under 60", () => {
    expect(textWidth({ isTTY: true, columns: 100 }, { COLUMNS: '80' })).toBe(100);
    expect(textWidth({ isTTY: false }, { COLUMNS: '80' })).toBe(80);
    expect(textWidth({}, {})).toBe(120);
    expect(textWidth({}, { COLUMNS: 'wide' })).toBe(120);
    expect(textWidth({ isTTY: true, columns: 30 }, {})).toBe(60);
  });
});
