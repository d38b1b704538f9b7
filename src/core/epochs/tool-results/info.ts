/** The tool-result kind's readers' record (rescue mode): its blocks' originals in `elided/`. */
import { isPart, type FrozenBlock } from '../../epoch-types.js';
import { partPlaceOf } from '../../part-place.js';
import type { TranscriptIndex } from '../../transcript-index-types.js';
import { findPartStubs, findStubs, restoredContent } from '../inflate.js';
import type { EpochKindInfo, InflateSite } from '../kind-record.js';
import { blocksChecker } from './check-record.js';
import { listedBlock } from './listed.js';
import { blockFigures } from './figures.js';

/**
 * The order a conversation's frozen blocks are applied in: tool results by ordinal (as before
 * parts), then the deeper cut's parts by their place.
 */
export function byBlockOrder(a: FrozenBlock, b: FrozenBlock): number {
  if (!isPart(a) || !isPart(b)) return isPart(a) === isPart(b) ? a.ordinal - b.ordinal : isPart(a) ? 1 : -1;
  return a.messageIndex - b.messageIndex || a.blockIndex - b.blockIndex || comparePaths(a.path, b.path);
}

function comparePaths(a: FrozenBlock['path'] & {}, b: FrozenBlock['path'] & {}): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The tool-result kind, as the record, report, verify, restore and inflate code see it. */
export const TOOL_RESULTS_INFO: EpochKindInfo<FrozenBlock> & { readonly tag: 'tool_results' } = {
  tag: 'tool_results',
  mode: 'rescue',
  counts: 'blocks',
  byCommand: true,
  originals: 'elided',
  sealable: true,
  restorable: { name: 'elided tool result', ext: 'txt', listed: { under: 'blocks', entryOf: listedBlock } },
  // `show` prints a block's text and its exact JSON, each named as before kinds were one shape.
  shown: {
    exts: { txt: { kind: 'elided', label: 'elided text' }, json: { kind: 'elided-json', label: 'elided JSON' } },
    usedBy: (b, sha256, ext) => ((ext === 'txt' ? b.sha256 : b.rawSha256) === sha256 ? { ordinal: b.ordinal, toolUseId: b.toolUseId } : undefined),
  },
  figures: blockFigures,
  order: byBlockOrder,
  exts: ['txt', 'json'],
  describe: (b) => `${b.part === undefined ? 'ordinal' : b.part} ${b.ordinal}`,
  says: 'block',
  checkItems: blocksChecker,
  inflate: toolResultSites,
  filesOf: (b) => [{ sha256: b.sha256, ext: 'txt', bytes: b.bytes }, ...(b.rawSha256 === undefined ? [] : [{ sha256: b.rawSha256, ext: 'json' as const }])],
  // Just after the stubbed tool_result, when the block at its ordinal is still the same call's; a
  // part, just after its own block.
  changesAt: (b, index) => {
    if (isPart(b)) return partPlaceOf(b, index);
    const at = index.toolResults[b.ordinal];
    return at !== undefined && at.toolUseId === b.toolUseId ? { messageIndex: at.messageIndex, blockIndex: at.blockIndex + 1 } : undefined;
  },
};

/**
 * Where a body's tool-result and part stubs stand that ctxshed put there: a tool result's where
 * some epoch froze that call's result with that sha256, a part's where its record places it
 * (core/epochs/inflate.ts); each put back from its text and, when the record kept them, its exact
 * JSON bytes (`restoredContent`).
 */
function toolResultSites(body: Uint8Array, index: TranscriptIndex, blocks: readonly FrozenBlock[]): InflateSite[] {
  const frozen = new Set(blocks.filter((b) => !isPart(b)).map((b) => `${b.sha256} ${b.toolUseId}`));
  const results = findStubs(body, index).filter((f) => {
    const toolUseId = index.toolResults[f.ordinal]?.toolUseId;
    return toolUseId !== undefined && frozen.has(`${f.stub.sha256} ${toolUseId}`);
  });
  return [...results.map((f) => siteOf(f.start, f.end, f.stub)), ...findPartStubs(body, index, blocks).map((f) => siteOf(f.start, f.end, f.part))];
}

/** A stub's site: its text's file at the size it names, and its exact JSON's when it has one. */
function siteOf(start: number, end: number, named: { readonly sha256: string; readonly bytes: number; readonly rawSha256?: string | undefined }): InflateSite {
  const raw = named.rawSha256 === undefined ? [] : [{ sha256: named.rawSha256, ext: 'json' as const }];
  return { start, end, files: [{ sha256: named.sha256, ext: 'txt', bytes: named.bytes }, ...raw], make: ([text, json]) => restoredContent(named, text!, json) };
}
