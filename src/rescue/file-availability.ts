/**
 * Which originals are known to be there and to be what their names say, so no stub ever names a
 * missing or changed one (invariant 5; original-check.ts). Originals are content-addressed and
 * never rewritten by ctxshed, so once found good they stay known; a file a person deletes by hand
 * is noticed after a restart, or by `ctxshed verify`, and one found changed is asked again on the
 * next request (put back, it is good again). A file `ctxshed seal` moved to sealed/ still counts
 * (docs/rescue.md, "Sealing").
 */
import { EPOCH_KIND_INFO, type EpochKindInfo, type PlannedFile } from '../core/index.js';
import type { OriginalProblem } from '../core/original-problems.js';
import { writeOriginals } from '../state/write-originals.js';
import type { StateDir } from '../state/layout.js';
import { fsStore, originalKey, type ConversationStore } from '../store/index.js';
import { checkOriginals, type WantedOriginal } from './original-check.js';

/** An original found not to be what its name says: no stub names it (the engine reports it). */
export interface OriginalChange {
  readonly problem: OriginalProblem;
  /** Which original, and what is off: its size or its hash against what its name and epoch say. */
  readonly detail: string;
}

export class FileAvailability {
  readonly #seen = new Set<string>();
  /** Changed originals already reported by this process, so each is told once while it stays changed. */
  readonly #reported = new Set<string>();

  constructor(
    readonly state: StateDir,
    /** Where the originals are asked for: the state directory itself by default. */
    private readonly store: ConversationStore = fsStore(state),
    /** Told of each original found changed, once while it stays so. */
    private readonly onChanged: (change: OriginalChange) => void = () => undefined,
  ) {}

  /**
   * Checks, once each, the files a kind's items name (its `filesOf`: a tool result's text at its
   * `bytes` and exact JSON, a span's `.json` at its `bytes` and its `.md`, a removed thinking
   * block's `.json`, a registered kind's own), at the sizes they say. A sealed block's text is in
   * sealed/: its stub keeps being sent, byte for byte, so the cache holds and the text stays out of
   * the window; only its read-back is refused.
   */
  async checkItems(kind: EpochKindInfo, items: readonly unknown[]): Promise<void> {
    const wanted = items
      .flatMap((item) => kind.filesOf(item))
      .map((f): [string, WantedOriginal] => {
        const id = { kind: kind.originals, sha256: f.sha256, ext: f.ext };
        return [originalKey(id), { id, bytes: f.bytes }];
      })
      .filter(([seen]) => !this.#seen.has(seen));
    // Missing or changed: the kind's apply leaves the item alone (its `isAvailable` says no): a
    // block or a span is sent whole (span_file_missing), a thinking block stays (thinking_file_missing).
    await this.#verify(wanted);
  }

  /** Whether every file a kind's item names is known good. */
  hasItem(kind: EpochKindInfo, item: unknown): boolean {
    return kind.filesOf(item).every((f) => this.#seen.has(originalKey({ kind: kind.originals, sha256: f.sha256, ext: f.ext })));
  }

  /** Asks for `wanted` (each under the key `#seen` knows it by) in one check; the good become known, the changed are told once. */
  async #verify(wanted: ReadonlyArray<readonly [string, WantedOriginal]>): Promise<void> {
    if (wanted.length === 0) return;
    const verdicts = await checkOriginals(
      this.store,
      wanted.map(([, w]) => w),
    );
    for (const [seen, w] of wanted) {
      const verdict = verdicts.get(originalKey(w.id));
      if (verdict?.kind === 'good') {
        this.#seen.add(seen);
        this.#reported.delete(seen);
      } else if (verdict?.kind === 'changed' && !this.#reported.has(seen)) {
        this.#reported.add(seen);
        this.onChanged({ problem: verdict.problem, detail: verdict.detail });
      }
    }
  }

  /**
   * Makes the files of repeats' pointers durable in elided/ (rescue/apply-repeats.ts), once each:
   * true once every one exists. Only the state directory keeps them; another store answers false,
   * and the answers then go as they are.
   */
  async keepRepeats(files: readonly PlannedFile[]): Promise<boolean> {
    if (this.store.kind !== 'fs') return false;
    const unknown = files.filter((f) => !this.#seen.has(elidedKey(f)));
    if (unknown.length === 0) return true;
    try {
      await writeOriginals(
        this.state,
        unknown.map((f) => ({ folder: EPOCH_KIND_INFO.tool_results.originals, ...f })),
        [],
      );
    } catch {
      return false;
    }
    for (const f of unknown) this.#seen.add(elidedKey(f));
    return true;
  }
}

// A repeat pointer's file is an elided file: known by the key a tool result's file is.
function elidedKey(file: PlannedFile): string {
  return originalKey({ kind: 'elided', sha256: file.sha256, ext: file.ext });
}
