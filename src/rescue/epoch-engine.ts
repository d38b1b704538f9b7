/**
 * The epoch engine: bytes and headers in, the bytes to send out, with no socket. Each request goes
 * through its phases in order, each a file (docs/request-path.md "Step by step"):
 * - read (phase-read.ts): a model call with a readable body, its conversation and window;
 * - decide (phase-decide.ts): the conversation's kind, the thresholds in force, whether a latch may
 *   be due, and the index when there is anything to do;
 * - latch (phase-latch.ts): refaults and bring-backs counted, then the latch (maybe-latch.ts, one
 *   path for every kind): files durable, then the record;
 * - apply (apply-conversation.ts): the conversation's epochs applied, every file a stub names
 *   checked first;
 * - record (phase-record.ts): after the response, the usage reading the next request is judged on.
 * After a refusal as too long, or of a thinking block the edit invalidated, it latches at once and
 * prepares the request again (retry-after-refusal.ts). Anything unexpected sends the input bytes
 * unchanged with a reason from the closed list (core/passthrough-reasons.ts).
 */
import { DEFAULT_MEMO_LIMITS, KeyMemo, MemoCache, type DecideEpoch, type EligibilityMemo, type MemoLimits, type OverflowReading } from '../core/index.js';
import { errorText } from '../errors.js';
import { NO_METRICS, type Metrics } from '../metrics/metrics.js';
import type { StateDir } from '../state/layout.js';
import { fsStore, type ConversationStore } from '../store/index.js';
import { applyConversation } from './apply-conversation.js';
import { ConversationTable, type ConversationEntry } from './conversation-table.js';
import type { EngineParts } from './engine-parts.js';
import type { EngineSettings } from './engine-settings.js';
import type { ClassifierCall, EngineRequest, ObservedResponse, OverflowOutcome, Prepared, RetryOutcome } from './engine-types.js';
import { FileAvailability, type OriginalChange } from './file-availability.js';
import { decideRequest } from './phase-decide.js';
import { latchRequest } from './phase-latch.js';
import { readRequest } from './phase-read.js';
import { recordReading } from './phase-record.js';
import { PreviewWriter } from './preview-writer.js';
import { passthroughOf } from './prepared-of.js';
import { watchRecords } from './record-watch.js';
import { readRequestHead, withWindow, type RequestHead } from './request-meta.js';
import { RequestWindows } from './request-window.js';
import { canRescueRefusal, retryAfterOverflow, retryAfterPrefixMismatch } from './retry-after-refusal.js';
import { stubDirsOf } from './stub-dirs.js';

/** What the engine may be handed besides its state and settings. */
export interface EngineOptions {
  /** The clock for epoch records; `new Date()` by default. */
  readonly now?: () => Date;
  /** Called when the state directory fails (the request still goes out, see `Prepared.stateFailed`). */
  readonly onStateFailure?: (error: unknown) => void;
  /** Told of each original found not to be what its name says (original-check.ts): no stub names it; the proxy notes it. */
  readonly onOriginalChanged?: (change: OriginalChange) => void;
  /** Where latches are counted (the proxy's /_ctxshed/metrics); nowhere by default. */
  readonly metrics?: Metrics;
  /** How much the rewrite memos may hold (core/memo-cache.ts); the defaults by default. */
  readonly memoLimits?: MemoLimits;
  /** How much the eligibility memos may hold (core/eligible-blocks.ts); `memoLimits` by default. */
  readonly eligibilityLimits?: MemoLimits;
  /** `--labels model`: ctxshed's own call to the upstream (the proxy's); without it the local rules label. */
  readonly classify?: ClassifierCall;
  /**
   * Learn of other processes' epochs from a watch on the records (record-watch.ts) instead of a
   * `stat` per request: the proxy's choice; `close()` stops it.
   */
  readonly watchRecords?: boolean;
  /** Where records and originals are kept (src/store/): the state directory itself by default. */
  readonly store?: ConversationStore;
  /** The threshold latch's one decision per request (core/decide/decide-epoch.ts); a test hands in a spy to count them. */
  readonly decide?: DecideEpoch;
}

/** One engine per state directory and process; its conversations live as long as it does. */
export class EpochEngine {
  /** What every phase reads and keeps (engine-parts.ts). */
  readonly #parts: EngineParts;
  /** Where its records and originals are kept: what the restore routes read (proxy/restore-route.ts). */
  readonly store: ConversationStore;

  constructor(
    readonly state: StateDir,
    readonly settings: EngineSettings,
    options: EngineOptions = {},
  ) {
    const now = options.now ?? (() => new Date());
    const memos = new MemoCache(options.memoLimits ?? DEFAULT_MEMO_LIMITS);
    const store = options.store ?? fsStore(state);
    this.store = store;
    // The watch sees a state directory's records; a Postgres store is asked for each record's version.
    const watch = options.watchRecords === true && store.kind === 'fs' ? watchRecords(state) : undefined;
    const table = new ConversationTable(state, watch, store);
    const files = new FileAvailability(state, store, options.onOriginalChanged);
    this.#parts = {
      settings,
      table,
      applyDeps: { state, files, memos, stubs: stubDirsOf(store.stubDirs, settings) },
      latch: {
        table,
        settings,
        now: () => now().toISOString(),
        metrics: options.metrics ?? NO_METRICS,
        ...(options.classify === undefined ? {} : { classifier: { call: options.classify, memory: new Map() } }),
        ...(options.decide === undefined ? {} : { decide: options.decide }),
      },
      onStateFailure: options.onStateFailure ?? (() => undefined),
      now,
      memos,
      eligibility: new MemoCache<EligibilityMemo>(options.eligibilityLimits ?? options.memoLimits ?? DEFAULT_MEMO_LIMITS),
      keys: new KeyMemo(),
      windows: new RequestWindows(settings, options.memoLimits ?? DEFAULT_MEMO_LIMITS),
      previews: new PreviewWriter(state, now),
    };
  }

  /** Prepares one request. Never rejects, for any bytes and headers: a failure is a pass-through. */
  async prepare(request: EngineRequest): Promise<Prepared> {
    let head: RequestHead = { route: undefined, agentId: undefined, sessionId: undefined, encoding: undefined };
    try {
      head = readRequestHead(request);
      return await this.#prepare(request, head);
    } catch (error) {
      return passthroughOf(request.body, { ...head, window: this.#windowAfterFault(request, head) }, 'internal_error', errorText(error));
    }
  }

  /**
   * Whether a refusal of this request as too long may be rescued: a model call (any API) of a
   * conversation (either mode), sent as the engine meant it (retry-after-refusal.ts).
   */
  canRescueOverflow(prepared: Prepared): boolean {
    return canRescueRefusal(prepared);
  }

  /**
   * After the API refused `prepared` as too long: an overflow epoch at once, and the request
   * prepared once more (retry-after-refusal.ts). Never rejects: anything that stops the rescue is
   * `declined`, and the client then gets the refusal as it was.
   */
  prepareAfterOverflow(request: EngineRequest, prepared: Prepared, overflow: OverflowReading): Promise<OverflowOutcome> {
    return retryAfterOverflow(this.#parts, request, prepared, overflow);
  }

  /**
   * After the API refused `prepared`, a request ctxshed changed, because a thinking block failed
   * its prefix check: a correction epoch, and the request prepared once more
   * (retry-after-refusal.ts). Never rejects.
   */
  prepareAfterPrefixMismatch(request: EngineRequest, prepared: Prepared): Promise<RetryOutcome> {
    return retryAfterPrefixMismatch(this.#parts, request, prepared);
  }

  /**
   * Takes the usage reading of a response (phase-record.ts): the conversation's next request is
   * judged on it. On a shared store, returns the write of the reading (never rejects): the proxy
   * ends the response after it.
   */
  observe(prepared: Prepared, response: ObservedResponse): Promise<void> | undefined {
    return recordReading(this.#parts, prepared, response);
  }

  /** Whether a reading is written to a store other replicas read (observe then returns its write). */
  sharesReadings(): boolean {
    return this.#parts.table.store.noteReading !== undefined;
  }

  /**
   * Drops the rewrite and eligibility memos of conversations idle past the limit; returns how
   * many rewrite memos. Each request prunes too; the proxy also calls this on a timer, so an idle
   * proxy lets them go.
   */
  pruneMemos(): number {
    const nowMs = this.#parts.now().getTime();
    this.#parts.eligibility.prune(nowMs);
    this.#parts.windows.prune(nowMs);
    return this.#parts.memos.prune(nowMs);
  }

  /** How many rewrite memos the engine holds, and their estimated bytes (for status and tests). */
  memoUsage(): { readonly memos: number; readonly bytes: number } {
    return { memos: this.#parts.memos.size, bytes: this.#parts.memos.bytes };
  }

  /** Stops watching the records (see `EngineOptions.watchRecords`); the engine still works, with a `stat` per request. */
  close(): void {
    this.#parts.table.close();
  }

  /** Resolves once the previews begun so far are written (the proxy's close waits for them). */
  settle(): Promise<void> {
    return this.#parts.previews.settle();
  }

  /** The conversations seen so far (for status and tests). */
  conversations(): Iterable<ConversationEntry> {
    return this.#parts.table.entries();
  }

  /** The window of a request whose preparation failed: as read from its body, or 0 when that fails too. */
  #windowAfterFault(request: EngineRequest, head: RequestHead): number {
    try {
      return withWindow(head, request, this.settings).window;
    } catch {
      return 0;
    }
  }

  // One straight line, the phases in request order; each either gives the answer or goes on.
  async #prepare(request: EngineRequest, head: RequestHead): Promise<Prepared> {
    const read = await readRequest(this.#parts, request, head);
    if (read.kind === 'done') return read.prepared;
    const decided = decideRequest(this.#parts, request, read);
    if (decided.kind === 'done') return decided.prepared;
    const found = await latchRequest(this.#parts, request, read, decided);
    const { api, entry, key, meta } = read;
    return applyConversation(this.#parts.applyDeps, {
      kind: decided.latchKind,
      body: request.body,
      meta,
      entry,
      key,
      indexed: decided.indexed,
      api,
      nowMs: decided.nowMs,
      found,
    });
  }
}
