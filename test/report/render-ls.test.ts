import { describe, expect, it } from 'vitest';
import { REPORT_WIDTH } from '../../src/report/format-table.js';
import { NO_PROMPT, renderLs } from '../../src/report/render-ls.js';
import { NOW, session, widest } from './render-fixtures.js';

describe('renderLs', () => {
  it('should print a row per conversation with its key, last seen, fullness, epochs, blocks, bytes, requests and prompt', () => {
    const text = renderLs(session().summaries, NOW);

    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^KEY +LAST SEEN +FULL +EPOCHS +BLOCKS +ELIDED +REFAULTS +REQS +PROMPT$/);
    expect(lines[1]).toMatch(/^bbbbbbbbbbbb +3m ago +20\.0% +0 +0 +0 B +- +1  \(prompt unknown\)$/);
    // The prompt takes the room left on two lines, then is cut.
    expect(lines[2]).toMatch(/^aaaaaaaaaaaa +4m ago +55\.0% +2 +3 +61\.7 KiB +66\.7% +4  Please read every file under src\/ and then/);
    expect(lines[3]).toMatch(/^ {60,}\S.*…$/);
    expect(text).toContain('2 conversations, 2 epochs, 3 blocks elided: 61.7 KiB (each shed counted once).');
    expect(text).toContain('Read back later (refaults): 2 (66.7%) of the blocks elided.');
    expect(NO_PROMPT.length).toBeLessThan(40);
  });

  it('should fit the default width', () => {
    expect(widest(renderLs(session().summaries, NOW))).toBeLessThanOrEqual(REPORT_WIDTH);
  });

  it('should say how many lines of the wire log could not be read, with conversations or none', () => {
    expect(renderLs(session().summaries, NOW, { unreadableLines: 2 })).toContain(
      'wire.jsonl: 2 lines could not be read (not a record), left out of these figures.',
    );
    expect(renderLs([], NOW, { unreadableLines: 1 })).toContain('wire.jsonl: 1 line could not be read');
    expect(renderLs(session().summaries, NOW)).not.toContain('could not be read');
  });

  it('should say when there is nothing yet', () => {
    expect(renderLs([], NOW)).toMatch(/^No conversations yet/);
  });
});

describe('renderLs, shed mode', () => {
  it('should add a SPANS column only when a conversation sheds, with no block figures for it', async () => {
    const { shedSession } = await import('./render-fixtures.js');

    const text = renderLs(shedSession().summaries, NOW);

    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^KEY +LAST SEEN +FULL +EPOCHS +BLOCKS +ELIDED +REFAULTS +SPANS +REQS +PROMPT$/);
    expect(text).toMatch(/\ncccccccccccc .* +2 +- +- +- +2 +4  Port the parser to the new API\n/);
    expect(text).toMatch(/\naaaaaaaaaaaa +4m ago +55\.0% +2 +3 +61\.7 KiB +66\.7% +- +4  Please read every/);
    expect(text).toContain("Shed: 2 spans of 14 whole messages; each epoch's bytes, tokens and per-turn price: ctxshed stats.");
    expect(widest(text)).toBeLessThanOrEqual(REPORT_WIDTH);
  });
});
