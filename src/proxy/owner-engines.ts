/**
 * One epoch engine per owner (docs/team.md "Owners"): each over its owner's own state
 * (state/owner-state.ts), so conversations, epochs and originals are keyed by owner. The same
 * transcript from two owners is two conversations, and neither reads the other's originals. The
 * single-user owner `''` is the engine the proxy always had, over the state root.
 */
import type { EpochEngine } from '../rescue/index.js';
import type { StateDir } from '../state/layout.js';
import { existingOwnerState, ownerState } from '../state/owner-state.js';

/** Makes the engine of one owner's state (start-proxy.ts: the same settings and options as the default one). */
export type MakeEngine = (state: StateDir) => EpochEngine;

/** The engines of the owners seen so far, made on an owner's first request. */
export class OwnerEngines {
  readonly #engines = new Map<string, Promise<EpochEngine>>();
  readonly #made: EpochEngine[] = [];

  constructor(
    readonly root: StateDir,
    readonly defaultEngine: EpochEngine,
    readonly make: MakeEngine,
  ) {}

  /** The engine of `ownerId`, opening (creating) its state on its first request. Rejects when the state cannot be opened. */
  engineFor(ownerId: string): Promise<EpochEngine> {
    if (ownerId === '') return Promise.resolve(this.defaultEngine);
    let engine = this.#engines.get(ownerId);
    if (engine === undefined) {
      engine = ownerState(this.root, ownerId).then((state) => {
        const made = this.make(state);
        this.#made.push(made);
        return made;
      });
      // A failure is not kept: the next request tries again.
      engine.catch(() => this.#engines.delete(ownerId));
      this.#engines.set(ownerId, engine);
    }
    return engine;
  }

  /** The state of `ownerId` if it has one; a read (restore, spans) never creates an owner. */
  stateFor(ownerId: string): Promise<StateDir | undefined> {
    return existingOwnerState(this.root, ownerId);
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
