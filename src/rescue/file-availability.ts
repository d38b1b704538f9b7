/**
 * Which elided files are known to exist, so no stub ever names a missing one (invariant 5).
 * Files are content-addressed and never removed by ctxshed, so once seen they stay known; a
 * file a person deletes by hand is noticed after a restart, or by `ctxshed verify`. A file
 * `ctxshed seal` moved to sealed/ still counts (docs/rescue.md, "Sealing").
 */
import type { EpochKindInfo, FrozenBlock, FrozenSpan, FrozenThinking, PlannedFile } from '../core/index.js';
import { writeElidedBatch } from '../state/write-elided-batch.js';
import type { StateDir } from '../state/layout.js';
import { fsStore, originalKey, type ConversationStore, type OriginalId } from '../store/index.js';

export class FileAvailability {
  readonly #seen = new Set<string>();

  constructor(
    readonly state: StateDir,
    /** Where the originals are asked for: the state directory itself by default. */
    private readonly store: ConversationStore = fsStore(state),
  ) {}

  /** Looks up, once each, the files of blocks not yet known to exist. */
  async check(blocks: readonly FrozenBlock[]): Promise<void> {
    const unknown: Array<[string, 'txt' | 'json']> = [];
    for (const b of blocks) {
      if (!this.#seen.has(`${b.sha256}.txt`)) unknown.push([b.sha256, 'txt']);
      if (b.rawSha256 !== undefined && !this.#seen.has(`${b.rawSha256}.json`)) unknown.push([b.rawSha256, 'json']);
    }
    // A sealed block's text is in sealed/: its stub keeps being sent, byte for byte, so the
    // cache holds and the text stays out of the window; only its read-back is refused.
    const found = await this.#sizes(unknown.map(([sha256, ext]) => ({ kind: 'elided', sha256, ext })));
    for (const [sha, ext] of unknown) if (found.has(`elided:${sha}.${ext}`)) this.#seen.add(`${sha}.${ext}`);
  }

  /** Looks up, once each, the files (`.json`, `.md`) of spans not yet known to exist. */
  async checkSpans(spans: readonly FrozenSpan[]): Promise<void> {
    const unknown = spans.flatMap((s) =>
      (['json', 'md'] as const).filter((ext) => !this.#seen.has(`span:${s.sha256}.${ext}`)).map((ext) => [s.sha256, ext] as const),
    );
    // Missing: the splice leaves this span alone (reason span_file_missing).
    const found = await this.#sizes(unknown.map(([sha256, ext]) => ({ kind: 'span', sha256, ext })));
    for (const [sha, ext] of unknown) if (found.has(`span:${sha}.${ext}`)) this.#seen.add(`span:${sha}.${ext}`);
  }

  /** Looks up, once each, the files of removed thinking blocks not yet known to exist. */
  async checkThinking(blocks: readonly FrozenThinking[]): Promise<void> {
    const unknown = blocks.filter((b) => !this.#seen.has(`thinking:${b.sha256}`));
    // Missing: the block stays in the request (reason thinking_file_missing).
    const found = await this.#sizes(unknown.map((b) => ({ kind: 'thinking', sha256: b.sha256, ext: 'json' })));
    for (const b of unknown) if (found.get(`thinking:${b.sha256}.json`) === b.jsonBytes) this.#seen.add(`thinking:${b.sha256}`);
  }

  /** A registered kind (core/epochs/kind-info.ts): looks up, once each, the files its items name, at the sizes they say. */
  async checkItems(kind: EpochKindInfo, items: readonly unknown[]): Promise<void> {
    const wanted = items.flatMap((item) => kind.filesOf(item)).map((f) => ({ id: { kind: kind.originals, sha256: f.sha256, ext: f.ext }, bytes: f.bytes }));
    const unknown = wanted.filter((w) => !this.#seen.has(originalKey(w.id)));
    // Missing: the kind's apply leaves the item alone (its `isAvailable` says no).
    const found = await this.#sizes(unknown.map((w) => w.id));
    for (const w of unknown) {
      const size = found.get(originalKey(w.id));
      if (size !== undefined && (w.bytes === undefined || size === w.bytes)) this.#seen.add(originalKey(w.id));
    }
  }

  /** Whether every file a registered kind's item names is known to exist. */
  hasItem(kind: EpochKindInfo, item: unknown): boolean {
    return kind.filesOf(item).every((f) => this.#seen.has(originalKey({ kind: kind.originals, sha256: f.sha256, ext: f.ext })));
  }

  /** The sizes of those of `ids` the store keeps, in one ask; unreadable counts as missing (reason file_missing). */
  async #sizes(ids: readonly OriginalId[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    return this.store.originalSizes(ids).catch(() => new Map<string, number>());
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
