/**
 * ctxshed's own rescue, replayed: each rebuilt request goes through the proxy's `prepareRequest`
 * (the same conversation table, latch decision, epoch records and core rewrite the proxy runs)
 * over a temporary state directory, and the reading the proxy would have taken from the response
 * is handed back to its conversation the way the proxy's handler does.
 */
import type { ElisionPolicy, FullnessReading } from '../core/index.js';
import { ConversationTable } from '../proxy/conversation-table.js';
import { FileAvailability } from '../proxy/file-availability.js';
import { prepareRequest, type PrepareContext, type PreparedRequest } from '../proxy/prepare-request.js';
import { DEFAULT_MAX_REQUEST_BYTES, type ProxyConfig } from '../proxy/proxy-config.js';
import { openStateDir } from '../state/open-state-dir.js';

/** The rescue flags that matter to a replay. */
export interface RescueSettings {
  readonly threshold: number;
  readonly policy: ElisionPolicy;
  readonly window?: number;
}

/** One temporary state directory, shared by the conversations of one session. */
export class RescueReplay {
  readonly failures: string[] = [];
  /** The clock `prepareRequest` reads: the time of the request being replayed. */
  now = new Date(0).toISOString();

  private constructor(readonly ctx: PrepareContext) {}

  /** Opens (creates) the state directory `dir`. */
  static async open(dir: string, settings: RescueSettings): Promise<RescueReplay> {
    const state = await openStateDir(dir);
    const config: ProxyConfig = {
      // Never contacted: the replay stops before forwarding.
      upstream: new URL('http://127.0.0.1:9/'),
      threshold: settings.threshold,
      policy: settings.policy,
      ...(settings.window === undefined ? {} : { window: settings.window }),
      maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
      timeouts: { headersMs: 0, idleMs: 0 },
    };
    let replay: RescueReplay | undefined;
    const ctx: PrepareContext = {
      config,
      table: new ConversationTable(state),
      files: new FileAvailability(state),
      now: () => replay?.now ?? new Date(0).toISOString(),
      onStateFailure: (error) => replay?.failures.push(error instanceof Error ? error.message : String(error)),
    };
    replay = new RescueReplay(ctx);
    return replay;
  }

  /** Prepares a body exactly as the proxy would at time `timeMs`. */
  async send(body: Uint8Array, timeMs: number, agentId: string | undefined, window: number): Promise<PreparedRequest> {
    // Epoch records carry the request's own time, so a replay's records read like the session's.
    this.now = new Date(Number.isNaN(timeMs) ? 0 : timeMs).toISOString();
    return prepareRequest(this.ctx, body, 'messages', { agentId, window });
  }

  /** What the handler does after a 200: the reading of this conversation's latest response. */
  observe(prepared: PreparedRequest, reading: FullnessReading): void {
    if (prepared.conversation !== undefined) prepared.conversation.reading = reading;
  }
}
