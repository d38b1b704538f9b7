/**
 * Which originals are known to be there and to be what their names say, so no stub ever names a
 * missing or changed one (invariant 5; original-check.ts). Originals are content-addressed and
 * never rewritten by ctxshed, so once found good they stay known; a file a person deletes by hand
 * is noticed after a restart, or by `ctxshed verify`, and one found changed is asked again on the
 * next request (put back, it is good again). A file `ctxshed seal` moved to sealed/ still counts
 * (docs/rescue.md, "Sealing").
 */
import type { EpochKindInfo, FrozenBlock, FrozenSpan, FrozenThinking, PlannedFile } from '../core/index.js';
import type { OriginalProblem } from '../core/original-problems.js';
import { writeElidedBatch } from '../state/write-elided-batch.js';
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

  /** Checks, once each, the files of blocks not yet known good: the text at its `bytes`, the exact JSON at its `jsonBytes`. */
  async check(blocks: readonly FrozenBlock[]): Promise<void> {
    const wanted: Array<[string, WantedOriginal]> = [];
    for (const b of blocks) {
      if (!this.#seen.has(`${b.sha256}.txt`)) wanted.push([`${b.sha256}.txt`, { id: { kind: 'elided', sha256: b.sha256, ext: 'txt' }, bytes: b.bytes }]);
      if (b.rawSha256 !== undefined && !this.#seen.has(`${b.rawSha256}.json`))
        wanted.push([`${b.rawSha256}.json`, { id: { kind: 'elided', sha256: b.rawSha256, ext: 'json' }, bytes: b.jsonBytes }]);
    }
    // A sealed block's text is in sealed/: its stub keeps being sent, byte for byte, so the
    // cache holds and the text stays out of the window; only its read-back is refused.
    await this.#verify(wanted);
  }

  /** Checks, once each, the files (`.json` at the span's `bytes`, and its `.md`) of spans not yet known good. */
  async checkSpans(spans: readonly FrozenSpan[]): Promise<void> {
    const wanted = spans.flatMap((s) =>
      (['json', 'md'] as const)
        .filter((ext) => !this.#seen.has(`span:${s.sha256}.${ext}`))
        .map((ext): [string, WantedOriginal] => [
          `span:${s.sha256}.${ext}`,
          { id: { kind: 'span', sha256: s.sha256, ext }, bytes: ext === 'json' ? s.bytes : undefined },
        ]),
    );
    // Missing or changed: the splice leaves this span alone (reason span_file_missing).
    await this.#verify(wanted);
  }

  /** Checks, once each, the files of removed thinking blocks not yet known good. */
  async checkThinking(blocks: readonly FrozenThinking[]): Promise<void> {
    const wanted = blocks
      .filter((b) => !this.#seen.has(`thinking:${b.sha256}`))
      .map((b): [string, WantedOriginal] => [`thinking:${b.sha256}`, { id: { kind: 'thinking', sha256: b.sha256, ext: 'json' }, bytes: b.jsonBytes }]);
    // Missing or changed: the block stays in the request (reason thinking_file_missing).
    await this.#verify(wanted);
  }

  /** A registered kind (core/epochs/kind-info.ts): checks, once each, the files its items name, at the sizes they say. */
  async checkItems(kind: EpochKindInfo, items: readonly unknown[]): Promise<void> {
    const wanted = items
      .flatMap((item) => kind.filesOf(item))
      .map((f): [string, WantedOriginal] => {
        const id = { kind: kind.originals, sha256: f.sha256, ext: f.ext };
        return [originalKey(id), { id, bytes: f.bytes }];
      })
      .filter(([seen]) => !this.#seen.has(seen));
    // Missing or changed: the kind's apply leaves the item alone (its `isAvailable` says no).
    await this.#verify(wanted);
  }

  /** Whether every file a registered kind's item names is known good. */
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
    const unknown = files.filter((f) => !this.#seen.has(`${f.sha256}.${f.ext}`));
    if (unknown.length === 0) return true;
    try {
      await writeElidedBatch(this.state, unknown, []);
    } catch {
      return false;
    }
    for (const f of unknown) this.#seen.add(`${f.sha256}.${f.ext}`);
    return true;
  }

  /** Whether a removed thinking block's file is known to exist. */
  hasThinking(block: FrozenThinking): boolean {
    return this.#seen.has(`thinking:${block.sha256}`);
  }

  /** Whether both files a span's stub names are known to exist. */
  hasSpan(span: FrozenSpan): boolean {
    return this.#seen.has(`span:${span.sha256}.json`) && this.#seen.has(`span:${span.sha256}.md`);
  }

  /** Whether every file the block's stub would name is known to exist. */
  has(block: FrozenBlock): boolean {
    return this.#seen.has(`${block.sha256}.txt`) && (block.rawSha256 === undefined || this.#seen.has(`${block.rawSha256}.json`));
  }
}
