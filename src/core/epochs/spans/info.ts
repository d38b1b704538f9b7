/** The span kind's readers' record (shed mode, docs/shed.md): each span's exact bytes and its rendering in `spans/`. */
import type { FrozenSpan } from '../../shed/shed-types.js';
import { renderSpanMarkdown } from '../../shed/render-span-markdown.js';
import type { EpochKindInfo } from '../kind-record.js';

/** The span kind, as the record, report, verify, restore and inflate code see it. */
export const SPAN_INFO: EpochKindInfo<FrozenSpan> & { readonly tag: 'span' } = {
  tag: 'span',
  mode: 'shed',
  counts: 'spans',
  byCommand: false,
  originals: 'span',
  restorable: { name: 'shed span', ext: 'json' },
  render: renderSpanMarkdown,
  itemsOf: (e) => (e.span === undefined ? [] : [e.span]),
  exts: ['json', 'md'],
  describe: (s) => `span ${s.first}..${s.last}`,
  says: 'span',
  filesOf: (s) => [
    { sha256: s.sha256, ext: 'json', bytes: s.bytes },
    { sha256: s.sha256, ext: 'md' },
  ],
  // The span's first message: its blocks go with the span's bytes.
  changesAt: (s, index) => (s.first < index.messages.length ? { messageIndex: s.first, blockIndex: 0 } : undefined),
};
