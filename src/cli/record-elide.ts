/**
 * `ctxshed elide` acts as if an epoch latched now, so it writes one as the proxy would: the elided
 * files first, then the conversation's record naming every block it replaced (trigger `command`).
 * `inflate` puts back exactly what records name (state/inflate-from-state.ts), so a body `elide`
 * wrote inflates, and text that merely reads like a stub is never touched.
 */
import {
  EPOCH_KIND_INFO,
  blocksOf,
  blockKeyOf,
  blockKeys,
  isPart,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_TOKENS_PER_BYTE,
  LABELS_POLICY_VERSION,
  modelContextWindow,
  openAiModelWindow,
  planRecord,
  POLICY_NAME,
  type ApiDialect,
  type ElisionPolicy,
  type FrozenBlock,
  type LedgerRow,
  type PlannedBlock,
  type PlannedFile,
  type TranscriptIndex,
} from '../core/index.js';
import { conversationKeyFor } from '../rescue/conversation-key-of.js';
import { latchEpoch } from '../state/latch-epoch.js';
import type { StateDir } from '../state/layout.js';
import { CliError } from './cli-error.js';

/** What `elide` decided for one body. */
export interface ElideChoice {
  readonly body: Uint8Array;
  readonly api: ApiDialect;
  readonly index: TranscriptIndex;
  readonly plan: readonly PlannedBlock[];
  readonly blocks: readonly FrozenBlock[];
  readonly ledger: readonly LedgerRow[];
  readonly policy: ElisionPolicy;
  /** Where the body came from, for an error. */
  readonly source: string;
}

/**
 * Latches the blocks no earlier epoch of the body's conversation froze, and returns every block
 * the conversation's epochs now freeze: what the rewrite stubs.
 */
export async function recordElide(state: StateDir, choice: ElideChoice, now: Date): Promise<readonly FrozenBlock[]> {
  const { body, api, index, blocks } = choice;
  const lookup = conversationKeyFor(body, api, { route: undefined, agentId: undefined, sessionId: undefined, encoding: undefined });
  if (lookup.kind !== 'found') throw new CliError(`${choice.source}: no conversation to record the epoch under (${lookup.reason}: ${lookup.detail})`);
  const key = lookup.key;
  const record = await latchEpoch(state, key, (current) => {
    // The proxy's epochs may hold the deeper cut's parts too: a block is named by its key, not its ordinal alone.
    const earlierBlocks = (current?.epochs ?? []).flatMap((e) => blocksOf(e));
    const earlier = new Set(earlierBlocks.filter((b) => !isPart(b)).map((b) => b.ordinal));
    const earlierKeys = blockKeys(earlierBlocks);
    const added = blocks.filter((b) => !earlierKeys.has(blockKeyOf(b)));
    if (added.length === 0) return undefined;
    return planRecord({
      key,
      current,
      facts: {
        reading: {
          contextTokens: Math.round(body.length * DEFAULT_TOKENS_PER_BYTE),
          window: windowOf(index.model),
          epochsApplied: 0,
          requestBytes: body.length,
        },
        trigger: 'command',
        firstPrompt: api.firstPrompt(body, index),
        model: index.model ?? '',
        agentId: undefined,
      },
      threshold: 0,
      part: {
        tag: 'tool_results',
        policy: { name: POLICY_NAME, version: LABELS_POLICY_VERSION, ...choice.policy },
        items: added,
        ledger: choice.ledger.filter((row) => !earlier.has(row.ordinal)),
        originals: filesOf(choice.plan, added).map((f) => ({ folder: EPOCH_KIND_INFO.tool_results.originals, ...f })),
      },
      now: now.toISOString(),
    });
  });
  return (record?.epochs ?? []).flatMap((e) => blocksOf(e));
}

/** The model's window, as the proxy would take it with no `--window` and no beta header. */
function windowOf(model: string | undefined): number {
  if (model === undefined) return DEFAULT_CONTEXT_WINDOW;
  return modelContextWindow(model) ?? openAiModelWindow(model) ?? DEFAULT_CONTEXT_WINDOW;
}

/** The elided files of the frozen blocks: the text, and the exact JSON where it is kept. */
function filesOf(plan: readonly PlannedBlock[], frozen: readonly FrozenBlock[]): PlannedFile[] {
  const keys = blockKeys(frozen);
  return plan
    .filter((b) => keys.has(blockKeyOf(b)))
    .flatMap((b) => [
      { sha256: b.sha256, bytes: b.text, ext: 'txt' as const },
      ...(b.rawSha256 === undefined || b.raw === undefined ? [] : [{ sha256: b.rawSha256, bytes: b.raw, ext: 'json' as const }]),
    ]);
}
