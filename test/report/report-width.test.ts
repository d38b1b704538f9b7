/**
 * Every text report laid out to a terminal's width (issue 42 "Reports that fit"): at 60, 80, 120
 * and 200 columns no line is longer than the width (but a lone key or path too long for any line),
 * no word is broken across lines, and at 200 nothing is cut: whole prompts, whole reasons.
 */
import { describe, expect, it } from 'vitest';
import { renderLs } from '../../src/report/render-ls.js';
import { renderConversation } from '../../src/report/render-show.js';
import { renderStats } from '../../src/report/render-stats.js';
import { renderStatus } from '../../src/report/render-status.js';
import { buildStatsReport } from '../../src/report/stats-report.js';
import { buildStatusReport } from '../../src/report/status-report.js';
import { NOW, shedSession } from './render-fixtures.js';
import { KEY_A, KEY_C } from './report-fixtures.js';

const WIDTHS = [60, 80, 120, 200] as const;
/** Wide enough that nothing is laid out: the words every narrower rendering must keep whole. */
const UNLAID = 10_000;
const DIRS = { elidedDir: '/st/elided', spansDir: '/st/spans' };

/** Each report of the shed session (a rescue conversation with a 200-character prompt, a shed one, a wire-only one). */
const REPORTS: Record<string, (width: number) => string> = {
  ls: (width) => renderLs(shedSession().summaries, NOW, { sideCalls: 2, unreadableLines: 1, width }),
  status: (width) => {
    const { tally, summaries } = shedSession();
    return renderStatus(buildStatusReport(tally, summaries, { recentMs: 30 * 60_000, thresholds: { threshold: 0.7 } }), '/st', NOW, [], width);
  },
  stats: (width) => {
    const { tally, summaries } = shedSession();
    const report = buildStatsReport(tally, summaries);
    // The longest meanings the closed lists hold, so a reason is never cut mid-sentence.
    const holds = { working_set_exceeds_window: 1, mid_turn: 2, gain_too_small: 5 };
    return renderStats({ ...report, overall: { ...report.overall, holds, passthrough: { ...report.overall.passthrough, loaded_tool: 1 } } }, '/st', width);
  },
  'show, a rescue conversation': (width) => {
    const { summaries, records } = shedSession();
    return renderConversation(summaries.find((s) => s.key === KEY_A)!, records.find((r) => r.key === KEY_A)!.epochs, DIRS, NOW, width);
  },
  'show, a shed conversation': (width) => {
    const { summaries, records } = shedSession();
    return renderConversation(summaries.find((s) => s.key === KEY_C)!, records.find((r) => r.key === KEY_C)!.epochs, DIRS, NOW, width);
  },
};

/** The lines longer than `width` that are not one word standing alone (a key, a path: a cut one could not be pasted). */
function overlong(text: string, width: number): string[] {
  return text.split('\n').filter((line) => [...line].length > width && /\s/.test(line.trim()));
}

/** The words of `narrow` that are in no line of `whole` and are not a cell cut with `…`: a word broken across lines. */
function brokenWords(narrow: string, whole: string): string[] {
  const words = new Set(whole.split(/\s+/));
  // The note naming the columns left out at this width is the one line a narrow layout adds.
  const laid = narrow.replace(/\(left out at this width: [^)]*\)/g, '');
  return laid.split(/\s+/).filter((word) => word !== '' && !word.endsWith('…') && !words.has(word));
}

describe.each(Object.entries(REPORTS))('%s, laid out to the width', (_name, render) => {
  it.each(WIDTHS)('should fit %i columns and break no word', (width) => {
    const text = render(width);

    expect(overlong(text, width)).toEqual([]);
    expect(brokenWords(text, render(UNLAID))).toEqual([]);
  });

  it('should cut nothing at 200 columns: whole prompts, whole reasons', () => {
    expect(render(200)).not.toContain('…');
  });
});

describe('the width tests', () => {
  it('should catch a line too long, and a word broken across lines', () => {
    expect(overlong('short\nthis line is longer than ten\nonewordlongerthanten', 10)).toEqual(['this line is longer than ten']);
    expect(brokenWords('EL\nIDED 18 KiB\nprom…', 'ELIDED 18 KiB prompt')).toEqual(['EL', 'IDED']);
  });
});
