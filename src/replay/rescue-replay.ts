/**
 * ctxshed's own rescue, replayed: each rebuilt request goes through the epoch engine (the same
 * conversation table, latch decision, epoch records and core rewrite the proxy runs) over a
 * temporary state directory, and is handed back the reading the provider would have reported.
 * With `mode: 'shed'` in its settings it replays shed mode the same way (its gate, its spans).
 */
import { errorText } from '../errors.js';
import type { OverflowReading } from '../core/index.js';
import { EpochEngine, type EngineSettings, type OverflowOutcome, type Prepared } from '../rescue/index.js';
import type { StateDir } from '../state/layout.js';
import { openStateDir } from '../state/open-state-dir.js';

/** The path a replayed request is sent to: a Messages call, which may latch. */
const MESSAGES_TARGET = '/v1/messages';

/** One temporary state directory, shared by the conversations of one session. */
export class RescueReplay {
  readonly failures: string[] = [];
  /** The clock the engine reads: the time of the request being replayed. */
  #now = new Date(0);
  readonly #engine: EpochEngine;

  private constructor(
    readonly state: StateDir,
    settings: EngineSettings,
  ) {
    this.#engine = new EpochEngine(state, settings, {
      now: () => this.#now,
      onStateFailure: (error) => this.failures.push(errorText(error)),
      // The replay is the state directory's only writer: a watch on its records, not a stat per request.
      watchRecords: true,
    });
  }

  /** Opens (creates) the state directory `dir`. */
  static async open(dir: string, settings: EngineSettings): Promise<RescueReplay> {
    return new RescueReplay(await openStateDir(dir), settings);
  }

  /** Prepares a body exactly as the proxy would at time `timeMs`. */
  async send(body: Uint8Array, timeMs: number, agentId: string | undefined): Promise<Prepared> {
    // Epoch records carry the request's own time, so a replay's records read like the session's.
    this.#now = new Date(Number.isNaN(timeMs) ? 0 : timeMs);
    return this.#engine.prepare(messagesCall(body, agentId));
  }

  /**
   * What the proxy does when the API refused `prepared` as too long (overflow-retry.ts): the
   * engine's own rescue on overflow, in the replay's mode, latched at the refused request's time.
   */
  async retryAfterOverflow(body: Uint8Array, prepared: Prepared, agentId: string | undefined, overflow: OverflowReading): Promise<OverflowOutcome> {
    return this.#engine.prepareAfterOverflow(messagesCall(body, agentId), prepared, overflow);
  }

  /** Stops the engine's watch on the records (the replay is over). */
  close(): void {
    this.#engine.close();
  }

  /**
   * What the proxy does after a 200: the conversation's reading. `contextTokens` is the provider's
   * reading for the body sent; `requestBytes` counts the system prompt and tools the replay does
   * not rebuild, for the tokens-per-byte estimate.
   */
  observe(prepared: Prepared, reading: { readonly contextTokens: number; readonly requestBytes: number }): void {
    const usage = { inputTokens: reading.contextTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 };
    this.#engine.observe(prepared, { status: 200, usage, requestBytes: reading.requestBytes });
  }
}

function messagesCall(body: Uint8Array, agentId: string | undefined) {
  const headers = agentId === undefined ? {} : { 'x-claude-code-agent-id': agentId };
  return { method: 'POST', target: MESSAGES_TARGET, headers, body };
}
