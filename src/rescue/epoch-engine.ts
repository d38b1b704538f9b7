/**
 * The epoch engine: bytes and headers in, the bytes to send out, with no socket. It finds the
 * request's conversation, latches an epoch of the conversation's kind when its last reading says
 * so (maybe-latch.ts, one path for both kinds), and applies the conversation's epochs to the body
 * (apply-conversation.ts: every file a stub names checked first). After a refusal as too long, or
 * of a thinking block the edit invalidated, it latches at once and prepares the request again.
 * Anything unexpected sends the input bytes unchanged with a reason from the closed list
 * (core/passthrough-reasons.ts). docs/request-path.md walks through it.
 */
import {
  asksOneHourCache,
  contextTokensOf,
  DEFAULT_MEMO_LIMITS,
  hasFrozenItems,
  isPredictedCold,
  thresholdsFor,
  dialectOf,
  indexIncrementally,
  isSideCall,
  mayLatchOnThreshold,
  requestClassOfBody,
  KeyMemo,
  MemoCache,
  readsFullness,
  type DecideEpoch,
  type EligibilityMemo,
  type IncrementalIndex,
  type MemoLimits,
  type OverflowReading,
  type PassthroughReason,
  type Refault,
  type TranscriptIndex,
} from '../core/index.js';
import { errorText } from '../errors.js';
import { NO_METRICS, type Metrics } from '../metrics/metrics.js';
import type { StateDir } from '../state/layout.js';
import { fsStore, StoreError, type ConversationStore } from '../store/index.js';
import { commonPrefixLength } from './common-prefix-length.js';
import { conversationKeyFor } from './conversation-key-of.js';
import { PreviewWriter } from './preview-writer.js';
import { ConversationTable, viewOf, type ConversationEntry } from './conversation-table.js';
import type { EngineSettings } from './engine-settings.js';
import { countBringBacks } from './count-bring-backs.js';
import { countRefaults } from './count-refaults.js';
import type { ClassifierCall, EngineRequest, ObservedResponse, OverflowDeclined, OverflowOutcome, Prepared, RetryOutcome } from './engine-types.js';
import { applyConversation, type ApplyDeps } from './apply-conversation.js';
import { FileAvailability, type OriginalChange } from './file-availability.js';
import { passthroughOf, stubsOf, type StepFacts } from './prepared-of.js';
import type { LatchContext } from './latch-conversation.js';
import type { LatchKind } from './latch-kind.js';
import { kindFor } from './latch-kinds.js';
import { isOverThreshold, maybeLatch, type LatchOutcome } from './maybe-latch.js';
import { latchOnOverflow, type OverflowLatch } from './overflow-latch.js';
import { latchOnPrefixMismatch } from './prefix-check-latch.js';
import { watchRecords } from './record-watch.js';
import { readRequestHead, readRequestMeta, withWindow, type RequestHead, type RequestMeta } from './request-meta.js';
import { RequestWindows } from './request-window.js';
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
  readonly #table: ConversationTable;
  /** What the apply (apply-conversation.ts) reads and keeps: the state, the file checks, the rewrite memos. */
  readonly #applyDeps: ApplyDeps;
  readonly #latch: LatchContext;
  readonly #onStateFailure: (error: unknown) => void;
  readonly #now: () => Date;
  /**
   * Each conversation's last rewrite, so that its next request costs what is new
   * (core/incremental-rewrite.ts). A memo keeps the request body and its rewrite: neither may be
   * changed once handed in or out.
   */
  readonly #memos: MemoCache;
  /**
   * Each conversation's last judging of its eligible blocks, so that a request over the
   * threshold whose latch is refused judges only the blocks that are new (core/eligible-blocks.ts).
   */
  readonly #eligibility: MemoCache<EligibilityMemo>;
  /** The conversation keys made so far, by their first message's bytes (core/key-memo.ts). */
  readonly #keys = new KeyMemo();
  /** Each conversation's last walk for its `model`, so that a request's window costs what is new (request-window.ts). */
  readonly #windows: RequestWindows;
  /** Each conversation's first prompt, for the reports (preview-writer.ts). */
  readonly #previews: PreviewWriter;
  /** Where its records and originals are kept: what the restore routes read (proxy/restore-route.ts). */
  readonly store: ConversationStore;

  constructor(
    readonly state: StateDir,
    readonly settings: EngineSettings,
    options: EngineOptions = {},
  ) {
    const now = options.now ?? (() => new Date());
    this.#now = now;
    this.#memos = new MemoCache(options.memoLimits ?? DEFAULT_MEMO_LIMITS);
    this.#eligibility = new MemoCache<EligibilityMemo>(options.eligibilityLimits ?? options.memoLimits ?? DEFAULT_MEMO_LIMITS);
    this.#windows = new RequestWindows(settings, options.memoLimits ?? DEFAULT_MEMO_LIMITS);
    const store = options.store ?? fsStore(state);
    this.store = store;
    // The watch sees a state directory's records; a Postgres store is asked for each record's version.
    const watch = options.watchRecords === true && store.kind === 'fs' ? watchRecords(state) : undefined;
    this.#table = new ConversationTable(state, watch, store);
    const files = new FileAvailability(state, store, options.onOriginalChanged);
    this.#applyDeps = { state, files, memos: this.#memos, stubs: stubDirsOf(store.stubDirs, settings) };
    this.#latch = {
      table: this.#table,
      settings,
      now: () => now().toISOString(),
      metrics: options.metrics ?? NO_METRICS,
      ...(options.classify === undefined ? {} : { classifier: { call: options.classify, memory: new Map() } }),
      ...(options.decide === undefined ? {} : { decide: options.decide }),
    };
    this.#onStateFailure = options.onStateFailure ?? (() => undefined);
    this.#previews = new PreviewWriter(state, now);
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
   * conversation (either mode), sent as the engine meant it (rewritten or shed, or unchanged for
   * want of an epoch). count_tokens is never retried; a request that failed open would fail open again.
   */
  canRescueOverflow(prepared: Prepared): boolean {
    // Every API that gives a reading has a refusal as too long (its dialect's `tooLong`); count_tokens does not.
    if (!readsFullness(prepared.route) || prepared.conversation === undefined || isSideCall(prepared.requestClass)) return false;
    return prepared.outcome === 'rewritten' || prepared.reason === 'no_epoch';
  }

  /**
   * After the API refused `prepared` (the preparation of `request`) as too long: latches an epoch
   * at once (trigger `overflow`, the API's count as its reading) when what it takes out would
   * bring the request under the maximum, and prepares the request once more. In rescue mode the
   * epoch freezes the blocks not yet frozen; in shed mode it sheds a span, whatever the burst
   * gate says (overflow-latch.ts, core/epochs/spans/spans-latch.ts). Never rejects: anything that stops the rescue is
   * `declined`, and the client then gets the refusal as it was.
   */
  async prepareAfterOverflow(request: EngineRequest, prepared: Prepared, overflow: OverflowReading): Promise<OverflowOutcome> {
    const declined = (why: OverflowDeclined, detail?: string): OverflowOutcome =>
      detail === undefined ? { kind: 'declined', why, overflow } : { kind: 'declined', why, overflow, detail };
    try {
      const key = prepared.key;
      const entry = key === undefined ? undefined : this.#table.peek(key);
      if (!this.canRescueOverflow(prepared) || entry === undefined || key === undefined) return declined('not_rescuable');
      const api = dialectOf(prepared.route ?? 'messages');
      const kind = kindFor(entry, this.settings.mode, api);
      const outcome = await this.#latchAndPrepareAgain(request, prepared, entry, key, kind, (index, meta, onFailure) => {
        const refused = { body: request.body, index, agentId: meta.agentId, window: prepared.window, sentBytes: prepared.body.length, overflow, api };
        return latchOnOverflow(this.#latch, kind, entry, refused, onFailure);
      });
      if (outcome.kind === 'declined') return declined(outcome.why, outcome.detail);
      const retry = outcome.prepared;
      // A retry no smaller than the refused request would be refused again.
      if (retry.outcome !== 'rewritten') return declined('no_smaller_body', retry.detail);
      if (retry.rescued <= stubsOf(prepared).rescued || retry.body.length >= prepared.body.length) return declined('no_smaller_body');
      return { kind: 'retry', prepared: retry, overflow };
    } catch (error) {
      return declined('internal_error', errorText(error));
    }
  }

  /**
   * After the API refused `prepared`, a request ctxshed changed, because a thinking block failed
   * its prefix check: latches a correction epoch (prefix-check-latch.ts) and prepares the request
   * once more, without every thinking block the conversation's edits invalidated. Never rejects:
   * anything that stops it is `declined`, and the client then gets the refusal as it was.
   */
  async prepareAfterPrefixMismatch(request: EngineRequest, prepared: Prepared): Promise<RetryOutcome> {
    const declined = (why: OverflowDeclined, detail?: string): RetryOutcome =>
      detail === undefined ? { kind: 'declined', why } : { kind: 'declined', why, detail };
    try {
      const key = prepared.key;
      const entry = key === undefined ? undefined : this.#table.peek(key);
      // Only a request ctxshed changed: a refusal of the client's own bytes is the client's.
      if (!this.canRescueOverflow(prepared) || prepared.outcome !== 'rewritten' || entry === undefined || key === undefined) return declined('not_rescuable');
      const kind = kindFor(entry, this.settings.mode, dialectOf(prepared.route ?? 'messages'));
      const outcome = await this.#latchAndPrepareAgain(request, prepared, entry, key, kind, (index, _meta, onFailure) =>
        latchOnPrefixMismatch(this.#latch, entry, { body: request.body, index, kind: kind.tag }, onFailure),
      );
      if (outcome.kind === 'declined') return declined(outcome.why, outcome.detail);
      const retry = outcome.prepared;
      // The retry must go without more thinking than the refused request did.
      if (retry.outcome !== 'rewritten') return declined('no_smaller_body', retry.detail);
      if ((retry.thinkingRemoved ?? 0) <= (prepared.thinkingRemoved ?? 0)) return declined('no_smaller_body');
      return { kind: 'retry', prepared: retry };
    } catch (error) {
      return declined('internal_error', errorText(error));
    }
  }

  /**
   * What a rescue after a refusal shares, whatever refused: the refused body indexed from scratch
   * (the retry serves a new epoch, which no memo serves), the latch `latch` makes on it, then the
   * request prepared once more with whatever the conversation froze by now (ours or a concurrent
   * latch's). May throw; the callers catch.
   */
  async #latchAndPrepareAgain(
    request: EngineRequest,
    prepared: Prepared,
    entry: ConversationEntry,
    key: string,
    kind: LatchKind,
    latch: (index: TranscriptIndex, meta: RequestMeta, onFailure: (error: unknown) => void) => Promise<OverflowLatch>,
  ): Promise<RetryOutcome> {
    const meta = readRequestMeta(request, this.settings);
    const api = dialectOf(meta.route ?? 'messages');
    // An API whose key takes its index has no resumable index: its own index, from scratch.
    const indexed: IncrementalIndex = api.supports.keyFromHead
      ? indexIncrementally(request.body, undefined, commonPrefixLength)
      : { outcome: api.index(request.body) };
    if (indexed.outcome.kind === 'failed') return { kind: 'declined', why: 'not_rescuable', detail: indexed.outcome.detail };
    const { index } = indexed.outcome;
    let stateFailed = false;
    const latched = await latch(index, meta, (error) => {
      stateFailed = true;
      this.#onStateFailure(error);
    });
    if (latched.kind === 'declined') return latched;
    const retry = await applyConversation(this.#applyDeps, {
      kind,
      body: request.body,
      meta,
      entry,
      key,
      indexed,
      api,
      nowMs: this.#now().getTime(),
      found: {
        ...(latched.n === undefined ? {} : { latched: latched.n }),
        ...(stateFailed ? { stateFailed: true as const } : {}),
        ...(!kind.refaults || prepared.refaults === undefined ? {} : { refaults: prepared.refaults }),
      },
    });
    return { kind: 'retry', prepared: retry };
  }

  /**
   * Takes the usage reading of a response (docs/design.md "Fullness"): the conversation's next request
   * is judged on it. Only a 200 of a model call counts (Messages, Responses, chat): count_tokens
   * never latches.
   */
  observe(prepared: Prepared, response: ObservedResponse): Promise<void> | undefined {
    const conversation = prepared.conversation === undefined || prepared.key === undefined ? undefined : this.#table.peek(prepared.key);
    if (!readsFullness(prepared.route) || response.status !== 200 || response.usage === undefined || conversation === undefined) return undefined;
    // A side call's context is not its conversation's next turn.
    if (isSideCall(prepared.requestClass)) return undefined;
    conversation.reading = {
      contextTokens: contextTokensOf(response.usage),
      window: prepared.window,
      epochsApplied: prepared.epochs,
      requestBytes: response.requestBytes ?? prepared.body.length,
    };
    // On a shared store, the write of the reading (never rejects): the proxy ends the response after it.
    return this.#table.shareReading(conversation);
  }

  /**
   * Drops the rewrite and eligibility memos of conversations idle past the limit; returns how
   * many rewrite memos. Each request prunes too; the proxy also calls this on a timer, so an idle
   * proxy lets them go.
   */
  /** Whether a reading is written to a store other replicas read (observe then returns its write). */
  sharesReadings(): boolean {
    return this.#table.store.noteReading !== undefined;
  }

  pruneMemos(): number {
    const nowMs = this.#now().getTime();
    this.#eligibility.prune(nowMs);
    this.#windows.prune(nowMs);
    return this.#memos.prune(nowMs);
  }

  /** How many rewrite memos the engine holds, and their estimated bytes (for status and tests). */
  memoUsage(): { readonly memos: number; readonly bytes: number } {
    return { memos: this.#memos.size, bytes: this.#memos.bytes };
  }

  /** Stops watching the records (see `EngineOptions.watchRecords`); the engine still works, with a `stat` per request. */
  close(): void {
    this.#table.close();
  }

  /** Resolves once the previews begun so far are written (the proxy's close waits for them). */
  settle(): Promise<void> {
    return this.#previews.settle();
  }

  /** The conversations seen so far (for status and tests). */
  conversations(): Iterable<ConversationEntry> {
    return this.#table.entries();
  }

  /**
   * The conversation's entry. A side call never makes a conversation of its own: of one without
   * epochs it gets none, and an entry made only for it is let go.
   */
  async #entryOf(key: string, meta: RequestMeta): Promise<EntryLookup> {
    const known = this.#table.has(key);
    try {
      const entry = await this.#table.get(key);
      if (!isSideCall(meta.requestClass) || hasFrozenItems(entry.items)) return { kind: 'found', entry };
      if (!known) this.#table.forget(key);
      return { kind: 'side_call' };
    } catch (error) {
      this.#onStateFailure(error);
      return {
        kind: 'failed',
        detail: errorText(error),
        reason: error instanceof StoreError && error.code === 'STORE_UNAVAILABLE' ? 'store_unavailable' : 'state_unavailable',
      };
    }
  }

  /**
   * Whether this model call of the conversation comes back to a cold cache (core/cache-cold.ts):
   * the gap since its last one, on the engine's clock, passes the TTL the body asks for. Notes
   * the call's time for the next, always; says cold only when a cold threshold is configured, and
   * reads the body for its TTL only after a gap over five minutes.
   */
  #comesBackCold(entry: ConversationEntry, body: Uint8Array, nowMs: number): boolean {
    const gapMs = entry.lastRequestMs === undefined ? undefined : nowMs - entry.lastRequestMs;
    entry.lastRequestMs = nowMs;
    if (this.settings.latch.thresholds.coldThreshold === undefined || !isPredictedCold(gapMs, false)) return false;
    return isPredictedCold(gapMs, asksOneHourCache(body));
  }

  /** The window of a request whose preparation failed: as read from its body, or 0 when that fails too. */
  #windowAfterFault(request: EngineRequest, head: RequestHead): number {
    try {
      return withWindow(head, request, this.settings).window;
    } catch {
      return 0;
    }
  }

  // One straight line, in request order; each step either returns a pass-through or goes on.
  async #prepare(request: EngineRequest, given: RequestHead): Promise<Prepared> {
    const { body, headers } = request;
    let head = given;
    // Until the conversation is known, the window is read from the whole body; then, from what is new.
    let meta: RequestMeta | undefined;
    const pass = (reason: PassthroughReason, detail: string, found: StepFacts = {}): Prepared =>
      passthroughOf(body, meta ?? withWindow(head, request, this.settings), reason, detail, found);
    // 1. Only model calls with a readable body are ours.
    if (head.route === undefined) return pass('not_a_model_call', 'not a model call');
    if (head.encoding !== undefined) return pass('encoded_body', head.encoding);
    // 2. The conversation, by the key of the API the route speaks. A Messages call is named by
    //    its first message alone: most requests belong to one without epochs and go through
    //    without their whole body being indexed. An OpenAI call's key takes its index.
    const api = dialectOf(head.route);
    const lookup = conversationKeyFor(body, api, head, this.#keys);
    if (lookup.kind === 'none') return pass(lookup.reason, lookup.detail);
    const { key } = lookup;
    //    A Responses body that ends in compaction_trigger is a compaction request (core/openai/remote-compaction.ts).
    const requestClass = requestClassOfBody(head.requestClass, api, lookup.index);
    if (requestClass !== head.requestClass) head = { ...head, ...(requestClass === undefined ? {} : { requestClass }) };
    meta = this.#windows.metaOf(request, head, key, api, this.#now().getTime());
    const found = await this.#entryOf(key, meta);
    if (found.kind === 'failed') return pass(found.reason, found.detail, { key, stateFailed: true });
    if (found.kind === 'side_call') return pass('side_call', `a ${String(meta.requestClass)} request of a conversation without epochs`);
    const { entry } = found;
    if (readsFullness(meta.route)) this.#previews.note(key, body, api, lookup.index, meta);
    // 3. Nothing to do for a conversation without epochs that cannot latch one now. A
    //    conversation keeps the mode of its first epoch; a new one takes the engine's.
    const kind = kindFor(entry, this.settings.mode, api);
    const nowMs = this.#now().getTime();
    this.#memos.prune(nowMs);
    this.#eligibility.prune(nowMs);
    const cold = readsFullness(meta.route) && !isSideCall(meta.requestClass) && this.#comesBackCold(entry, body, nowMs);
    //    The thresholds in force for this request, asked once: the latch decides with the same.
    const thresholds = thresholdsFor(this.settings.latch.thresholds, cold);
    const mayLatch = readsFullness(meta.route) && mayLatchOnThreshold(meta.requestClass) && isOverThreshold(entry, thresholds);
    if (!hasFrozenItems(entry.items) && !mayLatch) return pass('no_epoch', 'no epoch yet', { conversation: viewOf(entry), key });
    //    The index resumes where this body stops being the one the conversation's last rewrite
    //    read: the index a scan from scratch gives, for the cost of what is new.
    //    An OpenAI body comes indexed already, from scratch: no memo resumes it.
    const indexed: IncrementalIndex =
      lookup.index === undefined
        ? indexIncrementally(body, this.#memos.get(key, nowMs), commonPrefixLength)
        : { outcome: { kind: 'indexed', index: lookup.index } };
    if (indexed.outcome.kind === 'failed') {
      const unread = mayLatch ? { hold: { reason: 'unreadable_body' as const, detail: indexed.outcome.detail } } : {};
      return pass(indexed.outcome.reason, indexed.outcome.detail, { conversation: viewOf(entry), key, epochs: entry.record?.epochs.length ?? 0, ...unread });
    }
    const { index } = indexed.outcome;
    // 4. Refaults: the model's new calls that read an elided block back (only model turns count).
    const refaults: Refault[] = readsFullness(meta.route) ? countRefaults(entry, body, index, api) : [];
    //    And what it brought back, counted in the record for the working set (count-bring-backs.ts).
    if (readsFullness(meta.route)) await countBringBacks(this.#latch.table, entry, { body, index, api }, this.#onStateFailure);
    // 5. The latch: files durable, then the record, before any stub names them.
    let stateFailed = false;
    const onLatchFailure = (error: unknown): void => {
      stateFailed = true;
      this.#onStateFailure(error);
    };
    let latch: LatchOutcome = {};
    if (mayLatch) {
      const eligibility = { memo: this.#eligibility.get(key, nowMs), keep: (memo: EligibilityMemo): void => this.#eligibility.set(key, memo, nowMs) };
      latch = await maybeLatch(this.#latch, kind, {
        entry,
        body,
        index,
        api,
        headers,
        agentId: meta.agentId,
        onStateFailure: onLatchFailure,
        eligibility,
        thresholds,
      });
    }
    // Over the threshold with no epoch latched: the answer is held, or rewritten by the epochs it has, and says why (core/decide/hold-reasons.ts).
    const weighed: StepFacts = {
      ...latch,
      ...(stateFailed ? { stateFailed: true as const } : {}),
      ...(!kind.refaults || refaults.length === 0 ? {} : { refaults }),
    };
    return applyConversation(this.#applyDeps, { kind, body, meta, entry, key, indexed, api, nowMs, found: weighed });
  }
}

/** A conversation's entry as #entryOf finds it. */
type EntryLookup =
  | { readonly kind: 'found'; readonly entry: ConversationEntry }
  | { readonly kind: 'side_call' }
  | { readonly kind: 'failed'; readonly detail: string; readonly reason: 'state_unavailable' | 'store_unavailable' };
