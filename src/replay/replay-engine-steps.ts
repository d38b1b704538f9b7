/**
 * The two strategies of a session replay that run ctxshed's own engine (replay-step.ts): rescue,
 * and rescue in shed mode, each fed back the reading the proxy's handler would take.
 */
import { isPart } from '../core/index.js';
import { latchedOf, passthroughReasonOf, type Prepared } from '../rescue/index.js';
import type { PricedRequest } from './prompt-cache.js';
import { countPassthrough, type SessionRun } from './session-run.js';
import { settle, type Settled } from './settle-strategy.js';
import { tokensOf, type StepFrame } from './step-frame.js';
import { sendWithinWindow, type WindowOutcome, type WindowRequest } from './window-refusal.js';

/** ctxshed rescue: the proxy's own pipeline, fed back the reading its handler would take. */
export async function replayRescue(run: SessionRun, frame: StepFrame): Promise<void> {
  const { conversation: c, request } = frame;
  run.refaults.observe(c.id, request.messages);
  const rescued = await sendWithinWindow(run.rescue, windowRequest(run, frame));
  const prepared = rescued.prepared;
  run.workingSets.rescue.add(frame.body, prepared, frame.tokensPerByte);
  if (prepared.outcome === 'rewritten' && prepared.conversation !== undefined) {
    // The replay's refaults are re-reads of the files whose Read results were elided: tool results only.
    const skipped = new Set(prepared.skipped.flatMap((s) => ('ordinal' in s && s.part === undefined ? [s.ordinal] : [])));
    run.refaults.elide(
      c.id,
      prepared.epochs,
      request.messages,
      prepared.conversation.items.tool_results.filter((b) => !isPart(b) && !skipped.has(b.ordinal)),
    );
  }
  const reason = passthroughReasonOf(prepared);
  if (reason !== undefined && reason !== 'no_epoch') countPassthrough(run, `rescue:${reason}`);
  for (const s of prepared.skipped ?? []) countPassthrough(run, `rescue-block:${s.reason}`);
  if (prepared.conversation !== undefined) run.entries.set(c.id, prepared.conversation);
  if (rescued.kind === 'answered' && rescued.rescued) run.tallies.rescue.rescued++;
  settle(run, frame, { strategy: 'rescue', sent: prepared.body, epochHere: latchedOf(prepared) !== undefined, outcome: settledOf(rescued) });
  if (rescued.kind === 'answered') run.rescue.observe(prepared, readingOf(frame, rescued.tokens, prepared));
}

/** ctxshed rescue --mode shed: the same, with spans of whole messages and the burst gate. */
export async function replayShed(run: SessionRun, frame: StepFrame, recorded: PricedRequest): Promise<void> {
  const { conversation: c, request, n, body, ttl, main, tokensPerByte: r } = frame;
  const { tallies, shedAccount } = run;
  shedAccount.beforeSend(c.id, request);
  const shedOut = await sendWithinWindow(run.shed, windowRequest(run, frame));
  const shedPrepared = shedOut.prepared;
  run.workingSets.shed.add(body, shedPrepared, r);
  const reason = passthroughReasonOf(shedPrepared);
  if (reason !== undefined && reason !== 'no_epoch') countPassthrough(run, `shed:${reason}`);
  for (const s of shedPrepared.skipped ?? []) countPassthrough(run, `shed-span:${s.reason}`);
  if (shedOut.kind === 'answered' && shedOut.rescued) tallies.shed.rescued++;
  const mainIndex = tallies.shed.fullness.length;
  const shedPriced = settle(run, frame, {
    strategy: 'shed',
    sent: shedPrepared.body,
    epochHere: latchedOf(shedPrepared) !== undefined,
    outcome: settledOf(shedOut),
  });
  if (shedPriced !== undefined) {
    shedAccount.afterSend({
      conversation: c.id,
      requests: c.requests.length,
      n,
      request,
      body,
      prepared: shedPrepared,
      priced: shedPriced,
      recorded,
      ttl,
      tokensPerByte: r,
      priceModel: frame.priceModel,
      ...(main ? { mainIndex } : {}),
    });
  }
  if (shedOut.kind === 'answered') run.shed.observe(shedPrepared, readingOf(frame, shedOut.tokens, shedPrepared));
}

/** The step's body for an engine, and how to count what it sends instead. */
function windowRequest(run: SessionRun, frame: StepFrame): WindowRequest {
  const { request, conversation: c } = frame;
  return { body: frame.body, timeMs: request.timeMs, agentId: c.agentId, window: run.window, tokensOf: (sent) => tokensOf(frame, sent) };
}

/** How the API took what an engine sent. */
function settledOf(out: WindowOutcome): Settled {
  return out.kind === 'refused' ? { refused: true, why: out.why } : { refused: false };
}

/** The reading the proxy's handler would hand the engine after a 200: the prompt's tokens and the request's size. */
function readingOf(frame: StepFrame, tokens: number, prepared: Prepared): { readonly contextTokens: number; readonly requestBytes: number } {
  return { contextTokens: Math.round(tokens), requestBytes: prepared.body.length + Math.round(frame.prefix / frame.tokensPerByte) };
}
