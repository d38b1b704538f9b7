/** What the two rewriting strategies of a replay (replay-rewrite-steps.ts) keep of one conversation between its requests. */
import type { ElisionPolicy } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { ClearingMemo } from './clear-tool-uses.js';
import { PerRequestRewriter } from './per-request-rewriter.js';
import { BodyBuilder } from './request-body.js';

/** A conversation's per-request rewriter, and clearing's memo and builder. */
export interface ConversationRewriters {
  readonly perRequest: PerRequestRewriter;
  readonly clearingMemo: ClearingMemo;
  /** Clearing's own builder: its bodies share their prefix with its last one, not with the client's. */
  readonly clearingBuilder: BodyBuilder;
}

/** Fresh ones, for a conversation's first request. */
export function openRewriters(policy: ElisionPolicy, elidedDir: string): ConversationRewriters {
  return { perRequest: new PerRequestRewriter(policy, elidedDir, sha256Hex), clearingMemo: new ClearingMemo(), clearingBuilder: new BodyBuilder() };
}
