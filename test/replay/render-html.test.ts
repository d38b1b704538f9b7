import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { renderHtml } from '../../src/replay/render-html.js';
import { renderTable } from '../../src/replay/render-table.js';
import { replaySession, type SessionReport } from '../../src/replay/replay-session.js';
import { fixtureLines } from './fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const run = promisify(execFile);
let dir: string;
let report: SessionReport;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'replay-html-'));
  const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');
  report = await replaySession('subagent.jsonl', conversations, {
    threshold: 0.7,
    policy: { keepRecent: 2, minBytes: 1024 },
    window: 60_000,
    stateDir: path.join(dir, 'state'),
    shedStateDir: path.join(dir, 'shed'),
  });
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('renderTable', () => {
  it('should show one row per strategy with the calibration above', () => {
    // Act
    const text = renderTable([report], { width: 1000, compact: false });

    // Assert
    expect(text).toContain('calibration (model vs recorded usage): cache read');
    for (const label of ['as recorded', 'ctxshed rescue', 'ctxshed shed', 'per-request', 'clear_tool_uses']) expect(text).toContain(`  ${label}`);
  });

  it('should show each shed epoch on its own line with its basis, never a sum', () => {
    // Act
    const text = renderTable([report], { width: 1000, compact: false });

    // Assert: the shed row has no bytes column of its own; the epoch line carries the basis
    expect(text).toMatch(/ctxshed shed .* per epoch /);
    expect(report.shedEpochs).toHaveLength(1);
    expect(text).toContain('shed epochs (each on its own: never summed, never set against cache reads):');
    expect(text).toMatch(/#1 subagent\.jsonl#1 request \d+ at \d+%: messages 1\.\.\d+ .*gate: break-even \d+ turns <= \d+ expected/);
    expect(text).toMatch(/per later turn [\d,]+ tokens not sent .* \[cache_read_marginal\]; re-write at the latch [\d,]+ tokens, \$[\d.]+ \[cache_write\]/);
  });
});

describe('renderHtml', () => {
  it('should draw two charts with one polyline per strategy, mark the epochs and list the shed epochs', () => {
    // Act
    const html = renderHtml([report]);

    // Assert
    expect(html.match(/<svg class="chart"/g)).toHaveLength(2);
    expect(html.match(/<polyline class="strategy"/g)).toHaveLength(10);
    expect(html.match(/<line class="epoch" data-strategy="rescue"/g)).toHaveLength(2);
    expect(html.match(/<line class="epoch" data-strategy="shed"/g)).toHaveLength(2);
    expect(html).toContain('<table class="shed-epochs">');
    expect(html).toContain('<small>cache_read_marginal</small>');
    expect(html).toMatch(/<p class="shed-held">Shed held back on requests over the threshold: (none|.*&times;\d+)\./);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  it.skipIf(!fs.existsSync(CHROMIUM))('should render in headless Chromium with the charts visible', async () => {
    // Arrange
    const page = path.join(dir, 'replay.html');
    await fsp.writeFile(page, renderHtml([report]));
    const shot = path.join(dir, 'replay.png');
    const flags = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${path.join(dir, 'profile')}`,
      '--window-size=1200,800',
    ];

    // Act
    const { stdout } = await run(CHROMIUM, [...flags, '--dump-dom', `file://${page}`], { maxBuffer: 16 * 1024 * 1024 });
    await run(CHROMIUM, [...flags, `--screenshot=${shot}`, `file://${page}`]);

    // Assert: the DOM Chromium built holds the charts, and it painted a page
    expect(stdout.match(/<svg class="chart"/g)).toHaveLength(2);
    expect(stdout.match(/<polyline class="strategy"/g)).toHaveLength(10);
    const png = await fsp.readFile(shot);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(10_000);
  });
});

if (!fs.existsSync(CHROMIUM)) {
  // Say so plainly: the page check needs Debian's chromium (CI installs it in .ci/run).
  process.stderr.write(`test/replay/render-html.test.ts: ${CHROMIUM} is absent; the headless Chromium check is skipped\n`);
}
