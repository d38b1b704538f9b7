/** The span kind's readers' record (shed mode, docs/shed.md): each span's exact bytes and its rendering in `spans/`. */
import type { FrozenSpan } from '../../shed/shed-types.js';
import { renderSpanMarkdown } from '../../shed/render-span-markdown.js';
import type { EpochKindInfo, InflateSite } from '../kind-record.js';
import type { TranscriptIndex } from '../../transcript-index-types.js';
import { findSpanStubs } from './find-span-stubs.js';
import { spansChecker } from './check-record.js';
import { listedSpan } from './listed.js';
import { spanFigures } from './figures.js';

/** The span kind, as the record, report, verify, restore and inflate code see it. */
export const SPAN_INFO: EpochKindInfo<FrozenSpan> & { readonly tag: 'span' } = {
  tag: 'span',
  mode: 'shed',
  counts: 'spans',
  byCommand: false,
  originals: 'span',
  dirName: 'spans',
  restorable: { name: 'shed span', ext: 'json', listed: { under: 'spans', entryOf: listedSpan } },
  render: renderSpanMarkdown,
  figures: spanFigures,
  shown: { exts: { json: { kind: 'span', label: 'shed span' } }, usedBy: (s, sha256) => (s.sha256 === sha256 ? { first: s.first, last: s.last } : undefined) },
  exts: ['json', 'md'],
  describe: (s) => `span ${s.first}..${s.last}`,
  says: 'span',
  checkItems: spansChecker,
  filesOf: (s) => [
    { sha256: s.sha256, ext: 'json', bytes: s.bytes },
    { sha256: s.sha256, ext: 'md' },
  ],
  inflate: spanSites,
  // The message after the span: the blocks inside it go with the span's bytes.
  changesAt: (s, index) => (s.first < index.messages.length ? { messageIndex: s.last + 1, blockIndex: 0 } : undefined),
};

/**
 * Where a body's span stubs stand that ctxshed put there: each stub message naming a span some
 * epoch shed (its sha256 and its size), the first of each only; a span is shed once, so a later
 * copy of the same stub message is the client's own text. Each is put back as the span's exact
 * bytes, `spans/<sha256>.json`.
 */
function spanSites(body: Uint8Array, index: TranscriptIndex, spans: readonly FrozenSpan[]): InflateSite[] {
  const shed = new Map(spans.map((s) => [s.sha256, s.bytes]));
  const seen = new Set<string>();
  return findSpanStubs(body, index).flatMap(({ start, end, stub }) => {
    if (shed.get(stub.sha256) !== stub.bytes || seen.has(stub.sha256)) return [];
    seen.add(stub.sha256);
    return [{ start, end, files: [{ sha256: stub.sha256, ext: 'json' as const }] }];
  });
}
