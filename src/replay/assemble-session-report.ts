/** The report of a session's replay (replay-session.ts), assembled once every step has run. */
import { round4 } from './calibration-tally.js';
import { estimateTarget, finishRunways } from './finish-runways.js';
import { billOf } from './recorded-bill.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { COST_BASIS, type SessionReport } from './session-report.js';
import type { SessionRun } from './session-run.js';
import { STRATEGIES } from './strategy-tally.js';
import { blocksOf } from '../core/index.js';

/** How many requests were replayed and priced, and how many fell after the first compaction. */
export interface StepCounts {
  readonly replayed: number;
  readonly afterCompaction: number;
}

/** Adds the figures only known at the end (the rescue's final epochs, each strategy's bytes saved) and assembles the report. */
export function assembleSessionReport(file: string, conversations: readonly RebuiltConversation[], run: SessionRun, counts: StepCounts): SessionReport {
  addFinalFigures(run, conversations);
  const { tallies, window, point, rescue, shed, shedAccount, tokenThreshold } = run;
  const runway = finishRunways(run.runways, run.runwayOf, point, window, run.basis === 'firstCompaction');
  const recordedSummary = tallies.recorded.summary(runway.recorded);
  const whole = run.recordedWhole;
  return {
    file,
    requests: conversations.reduce((a, c) => a + c.requests.length, 0),
    conversations: conversations.length,
    window,
    ...(tokenThreshold === undefined ? {} : { tokenThreshold }),
    calibration: run.calibration.calibration(run.model),
    strategies: {
      recorded: recordedSummary,
      rescue: tallies.rescue.summary(runway.rescue),
      shed: tallies.shed.summary(runway.shed),
      perRequest: tallies.perRequest.summary(runway.perRequest),
      clearToolUses: tallies.clearToolUses.summary(runway.clearToolUses),
    },
    shedEpochs: shedAccount.epochs,
    shedHeld: shedAccount.held(),
    passthrough: run.passthrough,
    stateFailures: [...rescue.failures, ...shed.failures.map((f) => `shed: ${f}`)],
    unpricedModels: [...run.unpriced],
    ...(run.options.priceAs === undefined ? {} : { priceAs: run.options.priceAs }),
    autoCompactAt: round4(point.tokens / window),
    compactionPoint: point,
    ...estimateTargetOf(run),
    costBasis: { basis: COST_BASIS, replayedRequests: counts.replayed, afterCompactionRequests: counts.afterCompaction },
    refaults: run.refaults.figure(
      conversations.reduce((n, c) => n + (run.entries.get(c.id)?.record?.epochs ?? []).reduce((k, e) => k + blocksOf(e).length, 0), 0),
    ),
    shedRefaults: shedAccount.refaults(),
    rewriteRefaults: {
      perRequest: run.rewriteRefaults.perRequest.figure(tallies.perRequest.shed.size),
      clearToolUses: run.rewriteRefaults.clearToolUses.figure(tallies.clearToolUses.shed.size),
    },
    workingSet: { rescue: run.workingSets.rescue.figure(), shed: run.workingSets.shed.figure() },
    ...(run.basis === 'wholeSession'
      ? {}
      : {
          recordedWithCompaction: {
            costUsd: round4(recordedSummary.costUsd + whole.costUsd),
            cacheWriteTokens: Math.round(recordedSummary.cacheWriteTokens + whole.cacheWriteTokens),
            compactionCalls: { requests: whole.compactionCalls.requests, costUsd: round4(whole.compactionCalls.costUsd) },
            unpricedModels: [...new Set([...run.unpriced, ...whole.unpriced])].sort(),
          },
          paid: billOf(conversations, run.options.priceAs),
        }),
  };
}

/** The rescue's shed blocks from its final records, and each strategy's bytes saved on each conversation's last request. */
function addFinalFigures(run: SessionRun, conversations: readonly RebuiltConversation[]): void {
  const { tallies } = run;
  for (const c of conversations) {
    for (const epoch of run.entries.get(c.id)?.record?.epochs ?? []) for (const b of blocksOf(epoch)) tallies.rescue.addShed(`${c.id}/${b.toolUseId}`, b.bytes);
    const finalBytes = run.finalBytes.get(c.id);
    if (finalBytes === undefined) continue;
    for (const s of STRATEGIES) tallies[s].finalBytesSaved += (finalBytes.recorded ?? 0) - (finalBytes[s] ?? 0);
  }
}

/** The count the runway estimates run to, where it is not the compaction point (none on a whole-session replay, which never estimates). */
function estimateTargetOf(run: SessionRun): { runwayEstimateTokens?: number } {
  if (run.basis !== 'firstCompaction') return {};
  const target = estimateTarget(run.runwayOf, run.point, run.window);
  return target === undefined || target === run.point.tokens ? {} : { runwayEstimateTokens: target };
}
