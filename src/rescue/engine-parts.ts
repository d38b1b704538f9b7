/**
 * What the engine keeps across requests, handed to each phase of a request (phase-read.ts,
 * phase-decide.ts, phase-latch.ts, apply-conversation.ts, phase-record.ts) and to the retries after
 * a refusal (retry-after-refusal.ts): one plain record, made once by the engine (epoch-engine.ts).
 */
import type { EligibilityMemo, KeyMemo, MemoCache } from '../core/index.js';
import type { ApplyDeps } from './apply-conversation.js';
import type { ConversationTable } from './conversation-table.js';
import type { EngineSettings } from './engine-settings.js';
import type { LatchContext } from './latch-conversation.js';
import type { PreviewWriter } from './preview-writer.js';
import type { RequestWindows } from './request-window.js';

/** The engine's state and collaborators, as its phases read them. */
export interface EngineParts {
  readonly settings: EngineSettings;
  /** The conversations seen so far, each with its record and last reading. */
  readonly table: ConversationTable;
  /** What the apply reads and keeps: the state, the file checks, the rewrite memos. */
  readonly applyDeps: ApplyDeps;
  /** What a latch needs: the table, the settings, the clock, the metrics, the classifier. */
  readonly latch: LatchContext;
  /** Told when the state fails; the request still goes out. */
  readonly onStateFailure: (error: unknown) => void;
  /** The engine's clock. */
  readonly now: () => Date;
  /**
   * Each conversation's last rewrite, so that its next request costs what is new
   * (core/incremental-rewrite.ts). A memo keeps the request body and its rewrite: neither may be
   * changed once handed in or out.
   */
  readonly memos: MemoCache;
  /**
   * Each conversation's last judging of its eligible blocks, so that a request over the
   * threshold whose latch is refused judges only the blocks that are new (core/eligible-blocks.ts).
   */
  readonly eligibility: MemoCache<EligibilityMemo>;
  /** The conversation keys made so far, by their first message's bytes (core/key-memo.ts). */
  readonly keys: KeyMemo;
  /** Each conversation's last walk for its `model`, so that a request's window costs what is new (request-window.ts). */
  readonly windows: RequestWindows;
  /** Each conversation's first prompt, for the reports (preview-writer.ts). */
  readonly previews: PreviewWriter;
}
