import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { niceTicks } from '../../src/replay/nice-ticks.js';
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
    settings: { threshold: 0.7, keepRecent: 2, minBytes: 1024, window: 60_000 },
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

  it('should open with a summary, draw responsive charts with numbers on both axes, tooltips and round cost ticks', () => {
    // Act
    const html = renderHtml([report]);

    // Assert: the summary comes before the first session, each strategy's headline in it
    const summary = html.indexOf('<section class="summary">');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(html.indexOf('<h2>subagent.jsonl</h2>'));
    expect(html).toMatch(/<td>ctxshed shed<\/td><td>\$\d+\.\d\d<\/td><td>[+-]\d+\.\d%<\/td>/);
    // Charts scale to the page: a viewBox and width 100%, never a fixed pixel width
    for (const svg of html.match(/<svg class="chart"[^>]*>/g) ?? []) expect(svg).toMatch(/viewBox="0 0 \d+ \d+" width="100%"/);
    // Numbers on the x axis (request 1 and the last), a tooltip on every point
    expect(html).toMatch(/text-anchor="middle" font-size="12">1<\/text>/);
    expect(html).toContain('<title>ctxshed rescue, request 12: ');
    // Cost ticks on a round step: every tick a multiple of 1, 2, 2.5 or 5 times a power of ten
    const cost = html.slice(html.indexOf('data-chart="cost"'));
    const ticks = [...cost.matchAll(/text-anchor="end" font-size="12">\$([\d.]+)<\/text>/g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
    expect(niceTicks(ticks.at(-1) ?? 0, ticks.length - 1)).toEqual(ticks);
    expect(ticks.every((t, i) => Math.abs(t - i * step) < 1e-9)).toBe(true);
  });

  it('should tell the lines apart without colour: a dash pattern each, and each narrower than the one drawn before it', () => {
    // Act
    const html = renderHtml([report]);

    // Assert: per chart, five lines; four dash patterns and one solid line, all different
    for (const chart of html.split('<svg class="chart"').slice(1)) {
      const lines = [...chart.matchAll(/<polyline class="strategy" [^>]*>/g)].map((m) => m[0]);
      expect(lines).toHaveLength(5);
      const dashes = lines.map((l) => /stroke-dasharray="([^"]+)"/.exec(l)?.[1] ?? 'none');
      expect(new Set(dashes).size).toBe(5);
      // A line drawn over one that runs the same course leaves it showing at both edges
      const widths = lines.map((l) => Number(/stroke-width="([\d.]+)"/.exec(l)?.[1]));
      for (let i = 1; i < widths.length; i++) expect(widths[i]!).toBeLessThan(widths[i - 1]!);
    }
    // The legend shows each line as drawn, not a coloured square
    expect(html.match(/<svg class="sample"/g)).toHaveLength(5);
    expect(html).not.toContain('&#9632;');
  });

  it('should put axis ticks on round numbers', () => {
    expect(niceTicks(14.54, 4)).toEqual([0, 5, 10, 15]);
    expect(niceTicks(7.27, 4)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
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

  for (const width of [1280, 800]) {
    it.skipIf(!fs.existsSync(CHROMIUM))(`should fit a ${width} px window: no table cut, nothing wider than the window`, async () => {
      // Arrange: the page of figures as wide as a long session's (eight-digit token counts, long names),
      // and a copy that writes each table box's widths and the page's into the DOM Chromium dumps
      const page = path.join(dir, `fit-${width}.html`);
      const probe =
        '<script>document.body.dataset.fit = [document.documentElement.scrollWidth, ...[...document.querySelectorAll(".scroll")].map((d) => d.scrollWidth - d.clientWidth)].join(" ")</script>';
      const html = renderHtml([widestReport(report)]);
      await fsp.writeFile(page, html.replace('</body>', `${probe}</body>`));
      const flags = [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ];

      // Act
      const { stdout } = await run(
        CHROMIUM,
        [...flags, `--user-data-dir=${path.join(dir, `profile-${width}`)}`, `--window-size=${width},900`, '--dump-dom', `file://${page}`],
        { maxBuffer: 16 * 1024 * 1024 },
      );

      // Assert: the page is no wider than the window, and no table (summary, strategies, shed epochs) is wider than its box
      const [pageWidth, ...overflows] = (/data-fit="([\d -]+)"/.exec(stdout)?.[1] ?? '').split(' ').map(Number);
      expect(pageWidth).toBeGreaterThan(0);
      expect(pageWidth).toBeLessThanOrEqual(width);
      expect(overflows).toHaveLength(html.match(/<div class="scroll">/g)?.length ?? 0);
      expect(overflows.length).toBeGreaterThanOrEqual(3);
      for (const overflow of overflows) expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});

if (!fs.existsSync(CHROMIUM)) {
  // Say so plainly: the page check needs Debian's chromium (CI installs it in .ci/run).
  process.stderr.write(`test/replay/render-html.test.ts: ${CHROMIUM} is absent; the headless Chromium check is skipped\n`);
}

/**
 * The report with every figure the page shows as wide as a long real session makes it: a session
 * named by its 36-character id, token counts of eight digits, costs in hundreds of dollars.
 */
function widestReport(base: SessionReport): SessionReport {
  const name = '258c7280-ae70-4798-800f-63464d01a85d.jsonl';
  const strategies = Object.fromEntries(
    Object.entries(base.strategies).map(([k, s]) => [
      k,
      {
        ...s,
        cacheReadTokens: 12_013_898,
        cacheWriteTokens: 2_667_948,
        uncachedTokens: 12_345,
        outputTokens: 123_456,
        costUsd: 123.45,
        epochs: 77,
        bytesShed: s.bytesShed === null ? null : 287_000,
      },
    ]),
  ) as unknown as SessionReport['strategies'];
  const shedEpochs = base.shedEpochs.map((e) => ({ ...e, conversation: `${name}#1` }));
  return { ...base, file: `/home/someone/.claude/projects/-home-someone-src-project/${name}`, strategies, shedEpochs };
}
