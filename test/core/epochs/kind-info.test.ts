import { describe, expect, it } from 'vitest';
import { EPOCH_MODES, type EpochKind } from '../../../src/core/epoch-types.js';
import {
  EPOCH_KIND_INFO,
  EPOCH_KIND_INFOS,
  epochKindInfo,
  epochKindInfos,
  kindOfMode,
  kindOfOriginals,
  kindOfConversation,
  kindOfEpoch,
  modeOfConversation,
  originalsNamedBy,
  registerEpochKind,
  renderingOf,
} from '../../../src/core/epochs/kind-info.js';
import { NO_ITEMS } from '../../../src/core/epochs/frozen-items.js';
import { renderSpanMarkdown } from '../../../src/core/shed/render-span-markdown.js';
import { utf8 } from '../bodies.js';

const SPAN_JSON = utf8('{"role":"user","content":"hello"},{"role":"assistant","content":"hi"}');

describe('the epoch kinds as the record, report and verify code see them', () => {
  it('should key each kind by its own tag, one record per tag the items are kept by', () => {
    for (const [tag, info] of Object.entries(EPOCH_KIND_INFO)) expect(info.tag).toBe(tag);
    expect(EPOCH_KIND_INFOS.map((k) => k.tag).sort()).toEqual(Object.keys(NO_ITEMS).sort());
  });

  it('should map each report mode word to exactly one kind', () => {
    expect(kindOfMode('rescue').tag).toBe<EpochKind>('tool_results');
    expect(kindOfMode('shed').tag).toBe<EpochKind>('span');
    for (const mode of EPOCH_MODES) expect(EPOCH_KIND_INFOS.filter((k) => k.mode === mode)).toHaveLength(1);
  });

  it("should read a conversation's kind from its first epoch that is not a correction, and no epoch as the tool-result kind's", () => {
    const base = {
      n: 1,
      latchedAt: '',
      reason: { fullness: 1, threshold: 1, window: 1, contextTokens: 1 },
      policy: { name: '', version: 1, keepRecent: 0, minBytes: 0 },
    };
    const span = { first: 1, last: 2, sha256: 'ab'.repeat(32), bytes: 3, pins: [] };
    const shed = { ...base, kind: 'span', items: { span: [span] } };
    const correction = { ...base, kind: 'thinking_only', trigger: 'prefix_check' as const, items: { thinking_only: [] } };

    expect(kindOfConversation([]).tag).toBe('tool_results');
    expect(modeOfConversation([])).toBe('rescue');
    expect(kindOfConversation([correction, shed]).tag).toBe('span');
    expect(modeOfConversation([shed, correction])).toBe('shed');
    expect(kindOfEpoch(correction).tag).toBe('thinking_only');
    expect(kindOfEpoch({ ...shed, kind: 'nobody' }).tag).toBe('tool_results');
  });

  it('should refuse a mode no kind runs in with a clear error', () => {
    expect(() => kindOfMode('compact' as never)).toThrow(/no epoch kind runs in mode compact/);
  });

  it('should count tool results as blocks and spans as spans, and let only the tool-result kind latch by command', () => {
    expect(kindOfMode('rescue').counts).toBe('blocks');
    expect(kindOfMode('shed').counts).toBe('spans');
    expect(EPOCH_KIND_INFO.thinking_only.counts).toBe('thinking');
    expect(EPOCH_KIND_INFOS.filter((k) => k.byCommand).map((k) => k.tag)).toEqual(['tool_results']);
  });

  it("should render an original by its folder's kind: a span as its markdown, an elided text not at all", () => {
    expect(kindOfOriginals('span')?.tag).toBe('span');
    expect(kindOfOriginals('nowhere')).toBeUndefined();
    expect(renderingOf('span', SPAN_JSON, 'ab'.repeat(32))).toBe(renderSpanMarkdown(SPAN_JSON, 'ab'.repeat(32)));
    expect(renderingOf('elided', SPAN_JSON, 'ab'.repeat(32))).toBeUndefined();
    expect(renderingOf('thinking', SPAN_JSON, 'ab'.repeat(32))).toBeUndefined();
  });
});

describe('the registry of epoch kinds', () => {
  const info = (tag: string, originals: string) => ({
    tag,
    mode: undefined,
    counts: 'items' as const,
    byCommand: false,
    originals,
    filesOf: () => [],
  });

  it('should add a kind with a new tag, find it by its tag and folder, and take it out again', () => {
    const remove = registerEpochKind(info('quotes', 'quotes'));
    expect(epochKindInfo('quotes')?.originals).toBe('quotes');
    expect(kindOfOriginals('quotes')?.tag).toBe('quotes');
    expect(epochKindInfos().map((k) => k.tag)).toEqual(['tool_results', 'span', 'thinking_only', 'quotes']);
    remove();
    expect(epochKindInfo('quotes')).toBeUndefined();
    expect(epochKindInfos().map((k) => k.tag)).toEqual(['tool_results', 'span', 'thinking_only']);
  });

  it('should refuse a tag or folder of another shape, a tag registered already and a folder the state directory or another kind uses', () => {
    expect(() => registerEpochKind(info('Quotes', 'quotes'))).toThrow(/tag is lowercase/);
    expect(() => registerEpochKind(info('quotes', '../x'))).toThrow(/folder is lowercase/);
    expect(() => registerEpochKind(info('span', 'quotes'))).toThrow(/registered already/);
    expect(() => registerEpochKind(info('quotes', 'conversations'))).toThrow(/taken/);
    expect(() => registerEpochKind(info('quotes', 'elided'))).toThrow(/taken/);
    expect(() => registerEpochKind({ ...info('quotes', 'quotes'), mode: 'shed' })).toThrow(/has no report mode/);
  });

  it("should read a registered kind's items from an epoch's items under its tag, and name its files by its record", () => {
    const remove = registerEpochKind({
      ...info('quotes', 'quotes'),
      filesOf: (q: { sha256: string }) => [{ sha256: q.sha256, ext: 'json' as const, bytes: 3 }],
    });
    try {
      const epoch = {
        n: 1,
        latchedAt: '',
        reason: { fullness: 1, threshold: 1, window: 1, contextTokens: 1 },
        policy: { name: '', version: 1, keepRecent: 0, minBytes: 0 },
        kind: 'quotes',
        items: { quotes: [{ sha256: 'ab'.repeat(32) }] },
      };
      expect(epoch.kind).toBe('quotes');
      expect(originalsNamedBy([epoch])).toEqual(new Map([[`quotes:${'ab'.repeat(32)}.json`, 3]]));
    } finally {
      remove();
    }
  });
});
