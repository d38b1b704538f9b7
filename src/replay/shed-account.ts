/**
 * What a replay keeps of shed mode besides its bill: each epoch's figure (shed-epochs.ts), the
 * requests over the threshold where nothing latched and why (the engine's own hold,
 * `Prepared.hold`, so the replay cannot drift from the engine), and the refaults of
 * the tool results its spans took out (replay-refaults.ts). Fed one request at a time, after the
 * engine prepared it and the cache model priced it.
 */
import type { GateDecision, HoldReason } from '../core/index.js';
import { latchedOf, latchHoldOf, type Prepared } from '../rescue/index.js';
import type { PricedRequest } from './prompt-cache.js';
import type { RebuiltRequest } from './rebuild-conversations.js';
import { ReplayRefaults, spanToolResults, type RefaultFigure } from './replay-refaults.js';
import { shedEpochFigure, type ShedEpochFigure } from './shed-epochs.js';

/** Why no shed epoch latched on a request over the threshold (docs/reasons.md, "Why no epoch latched"). */
export type ShedHold = HoldReason;

/** The requests shed held back on, by why, and the gate's figures the first time it held. */
export interface ShedHeld {
  readonly requests: Partial<Record<ShedHold, number>>;
  readonly firstGate?: {
    readonly conversation: string;
    readonly request: number;
    readonly gate: GateDecision;
    readonly spanBytes: number;
    readonly windowBytes: number;
  };
}

/** One shed request as the replay saw it. */
export interface ShedStep {
  readonly conversation: string;
  /** Requests in the conversation, and this one's place among them. */
  readonly requests: number;
  readonly n: number;
  readonly request: RebuiltRequest;
  /** The body as rebuilt, and the engine's preparation of it. */
  readonly body: Uint8Array;
  readonly prepared: Prepared;
  /** The cache model's figures for the shed body and for the body as recorded. */
  readonly priced: PricedRequest;
  readonly recorded: PricedRequest;
  readonly ttl: '5m' | '1h';
  readonly tokensPerByte: number;
  /** The model whose prices bill it (`replay --price-as`, else the request's). */
  readonly priceModel: string;
  /** Its place in the main-thread series, when it is a main-thread request. */
  readonly mainIndex?: number;
}

/** Shed mode's figures over one session. */
export class ShedAccount {
  readonly epochs: ShedEpochFigure[] = [];
  readonly #held: Partial<Record<ShedHold, number>> = {};
  #firstGate: ShedHeld['firstGate'];
  readonly #refaults = new ReplayRefaults();
  /** Per conversation: the tool results its spans took out, by tool_use id. */
  readonly #results = new Map<string, Set<string>>();
  /** Per conversation: body bytes its last shed request was smaller by. */
  readonly #saved = new Map<string, number>();

  // The settings are the engine's: the holds are its own now, and the figures keep them for a reader.
  /** Before the engine sees the request: its newest Reads of files whose results were shed. */
  beforeSend(conversation: string, request: RebuiltRequest): void {
    this.#refaults.observe(conversation, request.messages);
  }

  /** After the request was prepared and priced. Returns the body bytes shed took out of it. */
  afterSend(step: ShedStep): number {
    const { prepared, conversation: c, request } = step;
    const entry = prepared.conversation;
    if (prepared.outcome === 'rewritten' && entry !== undefined) {
      const skipped = new Set(prepared.skipped.flatMap((s) => ('sha256' in s ? [s.sha256] : [])));
      const taken = entry.items.span.filter((sp) => !skipped.has(sp.sha256)).flatMap((sp) => spanToolResults(request.messages, sp.first, sp.last));
      this.#refaults.elide(c, prepared.epochs, request.messages, taken);
      const ids = this.#results.get(c) ?? new Set<string>();
      for (const t of taken) ids.add(t.toolUseId);
      this.#results.set(c, ids);
    }
    const savedNow = step.body.length - prepared.body.length;
    const savedBefore = this.#saved.get(c) ?? 0;
    this.#saved.set(c, savedNow);
    const latched = latchedOf(prepared);
    const hold = latchHoldOf(prepared);
    const epoch = latched === undefined ? undefined : entry?.record?.epochs.find((e) => e.n === latched);
    if (epoch !== undefined) {
      this.epochs.push(
        shedEpochFigure({
          conversation: c,
          request: step.n,
          ...(step.mainIndex === undefined ? {} : { mainIndex: step.mainIndex }),
          epoch,
          model: step.priceModel,
          ttl: step.ttl,
          tokensPerByte: step.tokensPerByte,
          bytesSavedNow: savedNow,
          bytesSavedBefore: savedBefore,
          // What the provider served warm: the recorded read, less the tokens earlier epochs already took out.
          warmTokens: request.usage.cacheRead - step.tokensPerByte * savedBefore,
          shedCacheWrite: step.priced.cacheWriteTokens,
          recordedCacheWrite: step.recorded.cacheWriteTokens,
          turnsAfter: step.requests - 1 - step.n,
        }),
      );
    } else if (hold !== undefined) {
      // Over the threshold and nothing latched: the engine's own hold says why, with its figures.
      const { reason, gate, spanBytes, windowBytes } = hold;
      this.#hold(reason, step, gate, spanBytes, windowBytes);
    }
    return savedNow;
  }

  /** The requests held back, by why. */
  held(): ShedHeld {
    return { requests: { ...this.#held }, ...(this.#firstGate === undefined ? {} : { firstGate: this.#firstGate }) };
  }

  /** The refault figure: shed tool results whose file the session read again later. */
  refaults(): RefaultFigure {
    return this.#refaults.figure([...this.#results.values()].reduce((n, ids) => n + ids.size, 0));
  }

  #hold(why: ShedHold, step: ShedStep, gate: GateDecision | undefined, spanBytes = 0, windowBytes = 0): void {
    this.#held[why] = (this.#held[why] ?? 0) + 1;
    if (why === 'gate' && gate !== undefined && this.#firstGate === undefined) {
      this.#firstGate = { conversation: step.conversation, request: step.n, gate, spanBytes, windowBytes };
    }
  }
}
