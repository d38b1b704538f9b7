import { describe, expect, it } from 'vitest';
import { NO_PROMPT, renderLs } from '../../src/report/render-ls.js';
import { NOW, session, widest } from './render-fixtures.js';

describe('renderLs', () => {
  it('should print one line per conversation with its key, prompt, last seen, fullness, epochs, blocks, bytes and requests', () => {
    const text = renderLs(session().summaries, NOW);

    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^KEY +PROMPT +LAST SEEN +FULL +EPOCHS +BLOCKS +ELIDED +REFAULTS +REQS$/);
    expect(lines[1]).toMatch(/^bbbbbbbbbbbb  \(prompt unknown\) +3m ago +20\.0% +0 +0 +0 B +- +1$/);
    expect(lines[2]).toMatch(/^aaaaaaaaaaaa  Please read every file.*… +4m ago +55\.0% +2 +3 +61\.7 KiB +66\.7% +4$/);
    expect(text).toContain('2 conversations, 2 epochs, 3 blocks elided: 61.7 KiB (each shed counted once).');
    expect(text).toContain('Read back later (refaults): 2 (66.7%) of the blocks elided.');
    expect(NO_PROMPT.length).toBeLessThan(40);
  });

  it('should fit 100 columns', () => {
    expect(widest(renderLs(session().summaries, NOW))).toBeLessThanOrEqual(100);
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
    expect(lines[0]).toMatch(/^KEY +PROMPT +LAST SEEN +FULL +EPOCHS +BLOCKS +ELIDED +REFAULTS +SPANS +REQS$/);
    expect(text).toMatch(/\ncccccccccccc  Port the pars.* +2 +- +- +- +2 +4\n/);
    expect(text).toMatch(/\naaaaaaaaaaaa  Please read every.*… +4m ago +55\.0% +2 +3 +61\.7 KiB +66\.7% +- +4\n/);
    expect(text).toContain("Shed: 2 spans of 14 whole messages; each epoch's bytes, tokens and per-turn price: ctxshed stats.");
    expect(widest(text)).toBeLessThanOrEqual(100);
  });
});
