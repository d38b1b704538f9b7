/**
 * One epoch engine per owner (docs/team.md "Owners"): each over its owner's namespace of the
 * store (`store.forOwner`), so conversations, epochs and originals are keyed by owner, in the
 * state directory (`<state>/owners/<id>/`) or in Postgres (the rows of that owner). The same
 * transcript from two owners is two conversations, and neither reads the other's originals. The
 * single-user owner `''` is the engine the proxy always had, over the state root.
 */
import type { EpochEngine } from '../rescue/index.js';
import type { StateDir } from '../state/layout.js';
import { ownerState } from '../state/owner-state.js';
import type { ConversationStore } from '../store/index.js';

/**
 * Makes the engine of one owner (start-proxy.ts: the same settings and options as the default
 * one) over its namespace of the store; `state` is the owner's local directory (its previews).
 */
export type MakeEngine = (state: StateDir, store: ConversationStore) => EpochEngine;

/** The engines of the owners seen so far, made on an owner's first request. */
export class OwnerEngines {
  readonly #engines = new Map<string, Promise<EpochEngine>>();
  readonly #made: EpochEngine[] = [];

  constructor(
    readonly root: StateDir,
    readonly defaultEngine: EpochEngine,
    readonly make: MakeEngine,
    /** The store of owner `''`, whose `forOwner` gives every other owner's namespace. */
    readonly store: ConversationStore = defaultEngine.store,
  ) {}

  /** The engine of `ownerId`, opening (creating) its state on its first request. Rejects when the state cannot be opened. */
  engineFor(ownerId: string): Promise<EpochEngine> {
    if (ownerId === '') return Promise.resolve(this.defaultEngine);
    let engine = this.#engines.get(ownerId);
    if (engine === undefined) {
      // The owner's folder first (owners/ is made private here), then its namespace of the store.
      engine = ownerState(this.root, ownerId).then(async (state) => {
        const made = this.make(state, await this.store.forOwner(ownerId));
        this.#made.push(made);
        return made;
      });
      // A failure is not kept: the next request tries again.
      engine.catch(() => this.#engines.delete(ownerId));
      this.#engines.set(ownerId, engine);
    }
    return engine;
  }

  /** The namespace of `ownerId` if it has one; a read (restore, spans) never creates an owner. */
  storeFor(ownerId: string): Promise<ConversationStore | undefined> {
    return this.store.existingOwner(ownerId);
  }

  /** Every engine running: the default one and each owner's. */
  all(): EpochEngine[] {
    return [this.defaultEngine, ...this.#made];
  }

  /** How many owners besides the default have an engine (a count, never who). */
  get owners(): number {
    return this.#made.length;
  }
}
