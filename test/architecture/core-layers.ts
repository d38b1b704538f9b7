/**
 * The layers of src/core/ as a checker over source text (docs/core.md, "Layers"): each folder of the
 * core sits on one layer, and a file imports only files on its own layer or below, so imports run
 * one way. Pure, so its test can plant small examples and see the rule fire.
 */
import path from 'node:path';
import { importsOf, type Violation } from './import-rules.js';

/**
 * The layer of each folder of src/core/ (`''` is the core's root), bottom first:
 * 0. the base: the scanner, the shape every index shares, stubs, the plan, the key, the readings;
 * 1. `messages/` (the Messages API index), `openai/` (the OpenAI indexes and readers) and `labels/`;
 * 2. `shed/` (spans);
 * 3. `thinking/` (thinking blocks; it reads the shed's types) and `repeats/` (a text carried once;
 *    it reads which calls bring stored text back);
 * 4. `dialects/` (one record per API, over the indexes and readers below it);
 * 5. `epochs/` (the kinds of epoch, over all of the above);
 * 6. `rewrite/` (the incremental rewrite and its memo) and `decide/` (the decision).
 * `src/core/index.ts`, the entry point, is above all.
 */
export const CORE_LAYERS: Readonly<Record<string, number>> = {
  '': 0,
  messages: 1,
  openai: 1,
  labels: 1,
  shed: 2,
  thinking: 3,
  repeats: 3,
  dialects: 4,
  epochs: 5,
  rewrite: 6,
  decide: 6,
};

/** The core's entry point: it re-exports every layer. */
export const CORE_ENTRY = 'src/core/index.ts';

/**
 * Files whose folder is not yet their layer's, each with the layer it is on and why it has not
 * moved: a stop-gap while a move lands, to be emptied again. Empty: the epoch record's types sit in
 * the base, the decision and its hold reasons in `decide/`.
 */
export const PLACED: Readonly<Record<string, { readonly layer: number; readonly why: string }>> = {};

/**
 * Imports that run up, each named, allowed until they are moved away. Empty: the decision's types
 * (`EpochTake`, `EpochLatch`) sit in the base (core/epoch-take.ts), so no kind imports the decision.
 */
export const KNOWN_UP: ReadonlyArray<readonly [string, string]> = [];

/**
 * Each folder's types file: it lives beside the code it types, but sits on the base layer (0), since
 * the epoch record (`epoch-types.ts`, in the base) and the base's plan names its types. It may import
 * only the base (today it imports nothing), and folder pairs count it as the base (core-counts.ts).
 */
export const FOLDER_TYPES: ReadonlySet<string> = new Set([
  'src/core/shed/shed-types.ts',
  'src/core/thinking/thinking-types.ts',
  'src/core/labels/label-types.ts',
]);

/** The layer of a file of src/core/, or undefined for a file outside it (or the entry point). */
function layerOf(file: string): number | undefined {
  if (!file.startsWith('src/core/') || file === CORE_ENTRY) return undefined;
  if (FOLDER_TYPES.has(file)) return 0;
  const placed = PLACED[file];
  if (placed !== undefined) return placed.layer;
  const parts = file.slice('src/core/'.length).split('/');
  return CORE_LAYERS[parts.length === 1 ? '' : (parts[0] ?? '')];
}

/** Checks `files` (path relative to the repository to source text); empty when every import of the core runs down. */
export function checkCoreLayers(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const [file, source] of files) {
    if (!file.startsWith('src/core/') || file === CORE_ENTRY) continue;
    const layer = layerOf(file);
    if (layer === undefined) {
      violations.push({ file, rule: 'every folder of the core has a layer', detail: path.posix.dirname(file) });
      continue;
    }
    for (const spec of importsOf(source)) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/, '.ts');
      const targetLayer = layerOf(target);
      if (target === CORE_ENTRY) violations.push({ file, rule: 'the core imports no entry point', detail: spec });
      else if (targetLayer !== undefined && targetLayer > layer && !KNOWN_UP.some(([f, t]) => f === file && t === target)) {
        violations.push({ file, rule: 'the core imports one way: down its layers', detail: `${spec} (layer ${targetLayer} from layer ${layer})` });
      }
    }
  }
  return violations;
}
