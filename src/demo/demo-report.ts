/** What a demo run found, turn by turn and in sum; `--json` prints it as is. */
import type { VerifyReport } from '../state/verify-state.js';
import type { ModeWord } from '../rescue/index.js';

/** One request as the proxy's wire record tells it. */
export interface TurnReport {
  readonly turn: number;
  readonly status: number;
  /** Context tokens over the window, from the usage the model reported. */
  readonly fullness: number;
  readonly window: number;
  /** Bytes the client sent, and bytes the model received after the rewrite. */
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Stubs in the request, and the text bytes they stand for. */
  readonly rescued: number;
  readonly bytesElided: number;
  readonly epochs: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly latched?: number;
}

/** An epoch, as seen from the wire log: what it added to the stubs when it latched. */
export interface EpochReport {
  readonly epoch: number;
  readonly turn: number;
  /** The reading that made it latch: the previous request's fullness. */
  readonly fullness: number;
  readonly toolResults: number;
  readonly bytes: number;
  readonly elidedDir: string;
  /** Shed mode: the span of whole messages the epoch shed, as its record says. */
  readonly span?: DemoSpan;
}

/** A shed epoch's span: which messages, their exact bytes, the handle and the readable file. */
export interface DemoSpan {
  readonly first: number;
  readonly last: number;
  readonly messages: number;
  readonly bytes: number;
  readonly sha256: string;
  /** `<state>/spans/<sha256>.md`, the rendering the stub names. */
  readonly path: string;
}

/** The model read a stub's file back through the client's Read tool. */
export interface ReadBackReport {
  readonly askedAtTurn: number;
  readonly path: string;
  readonly expectedSha256: string;
  readonly expectedBytes: number;
  /** Undefined when the run ended before the answer came. */
  readonly answeredAtTurn?: number;
  readonly receivedSha256?: string;
  readonly receivedBytes?: number;
  readonly matched: boolean;
}

/** The totals printed at the end. */
export interface DemoSummary {
  readonly requests: number;
  readonly epochs: number;
  readonly window: number;
  readonly threshold: number;
  /** The last request: bytes sent by the client, received by the model, and the difference. */
  readonly lastBytesIn: number;
  readonly lastBytesOut: number;
  readonly bytesSaved: number;
  /** Fullness of the last request, and what it would have been unchanged (tokens = bytes / 4). */
  readonly lastFullness: number;
  readonly fullnessWithout: number;
  /** Cache-read tokens over cache-read plus cache-write tokens, over the whole run. */
  readonly cacheHitRatio: number;
  readonly cacheWriteTokens: number;
}

/** The whole run. */
export interface DemoReport {
  /** The state directory: `state`, as in every command's `--json`. */
  readonly state: string;
  readonly conversationKey: string;
  /** What the epochs froze: the `--mode` word, tool results (`rescue`), spans of whole messages (`shed`) or a registered kind's. */
  readonly mode: ModeWord;
  readonly turns: TurnReport[];
  readonly epochs: EpochReport[];
  readonly readBack: ReadBackReport | undefined;
  readonly summary: DemoSummary;
  readonly verify: { readonly ok: boolean } & VerifyReport;
  /** Commands to look further at the state directory. */
  readonly commands: string[];
}

/** What a run reports while it goes, for the line-per-turn display. */
export type DemoEvent =
  | {
      readonly kind: 'start';
      readonly stateDir: string;
      readonly proxyUrl: string;
      readonly modelUrl: string;
      readonly window: number;
      readonly threshold: number;
      readonly mode: ModeWord;
    }
  | { readonly kind: 'turn'; readonly turn: TurnReport; readonly threshold: number }
  | { readonly kind: 'epoch'; readonly epoch: EpochReport }
  | { readonly kind: 'read-back'; readonly readBack: ReadBackReport };
