/** `ctxshed show KEY` as text: a conversation, its epochs and every block they elided. Pure. */
import type { Epoch } from '../core/epoch-types.js';
import { blocksOf, itemsOfEpoch, epochKindInfo, GATE_CEILING, kindOfMode, renderLedgerLine, type FrozenBlock, type GateDecision } from '../core/index.js';
import { refaultRateOf, type ConversationSummary, type EpochSummary, type SpanSummary } from './conversation-summary.js';
import { fitLines } from './fit-lines.js';
import { droppedNote, fitTable, oneLine, REPORT_WIDTH, wrapText } from './format-table.js';
import { formatWhen } from './format-time.js';
import { formatBytes, formatCount, formatPercent, formatTokens, plural } from './format-units.js';
import { NO_PROMPT } from './render-ls.js';
import { shortId } from './resolve-id.js';

/** Where the originals are: elided tool results, and shed spans. */
export interface OriginalDirs {
  readonly elidedDir: string;
  readonly spansDir: string;
}

/** The conversation's particulars, then each epoch: when, why, the policy, and its blocks or span; laid out to `width`. */
export function renderConversation(
  summary: ConversationSummary,
  recordEpochs: readonly Epoch[],
  dirs: OriginalDirs,
  nowMs: number,
  width = REPORT_WIDTH,
): string {
  const s = summary;
  // A shed conversation elides no blocks: it says what it shed instead, counted, never summed.
  const kind = kindOfMode(s.mode);
  const shed =
    kind.counts === 'spans'
      ? [
          `  shed      ${plural(s.spansShed, 'span')}, ${plural(s.messagesShed, 'whole message')} in ${plural(s.epochs.length, 'epoch')} (each epoch's figures below, never summed)`,
        ]
      : [
          `  elided    ${plural(s.blocksElided, 'block')}, ${formatBytes(s.bytesElided)} (${formatTokens(s.tokensElided)} tokens) in ${plural(s.epochs.length, 'epoch')}`,
          `  refaults  ${describeRefaults(s.refaults, s.blocksRefaulted, s.blocksElided)}`,
        ];
  const lines = [
    `conversation ${s.key}`,
    ...wrapText(s.firstPrompt ?? NO_PROMPT, width, '  prompt    ', '            '),
    `  model     ${s.model ?? '-'}${s.agentId === null ? '' : `, agent ${oneLine(s.agentId)}`}`,
    `  seen      ${plural(s.requests, 'request')}, first ${formatWhen(s.firstSeen, nowMs)}, last ${formatWhen(s.lastSeen, nowMs)}`,
    `  fullness  ${formatPercent(s.fullness)}${s.window === null ? '' : ` of a ${formatCount(s.window)}-token window`} (the last reading)`,
    ...shed,
    ...holdsLine(s.tally?.holds ?? {}),
  ];
  for (const epoch of s.epochs) {
    lines.push(
      '',
      ...renderEpoch(
        epoch,
        recordEpochs.find((e) => e.n === epoch.n),
        nowMs,
        width,
      ),
    );
  }
  if (recordEpochs.length > 0 && kind.render !== undefined) {
    lines.push('', `Originals: ${dirs.spansDir}/<HANDLE>.md (readable) and <HANDLE>.json (the exact bytes)`);
  } else if (recordEpochs.length > 0) {
    lines.push('', `Originals: ${dirs.elidedDir}/<SHA256>.txt`, 'One original: ctxshed show SHA256 (its first 12+ digits will do)');
  } else if (s.epochs.length > 0) {
    lines.push('', 'No record of these epochs in the state directory: figures are estimated from the wire log.');
  }
  return `${fitLines(lines, width).join('\n')}\n`;
}

/**
 * The requests over the threshold that latched nothing, by reason, most first (docs/reasons.md):
 * `working_set_thrash` shows the epochs the working set held back.
 */
function holdsLine(holds: Readonly<Record<string, number>>): string[] {
  const rows = Object.entries(holds)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (rows.length === 0) return [];
  return [`  holds     ${rows.map(([reason, n]) => `${reason} ${formatCount(n)}`).join(', ')} (over the threshold, no epoch latched)`];
}

function renderEpoch(e: EpochSummary, recorded: Epoch | undefined, nowMs: number, width: number): string[] {
  const lines = [`epoch ${e.n}  latched ${formatWhen(e.latchedAt, nowMs)}`];
  if (e.trigger !== null) lines.push(`  trigger   ${e.trigger}`);
  if (e.fullness !== null && e.threshold !== null && e.window !== null) lines.push(`  why       ${describeReading(e, e.fullness, e.threshold, e.window)}`);
  const span = e.span ?? undefined;
  if (e.policy !== null) {
    const p = e.policy;
    const recent = recorded?.policy.recentTokens;
    const shedWindow = recent === undefined ? `the messages of the ${p.keepRecent} newest tool results` : `a recent window of ${formatCount(recent)} tokens`;
    const window =
      span === undefined ? `older than the ${p.keepRecent} newest tool results, over ${formatCount(p.minBytes)} bytes` : `between the head and ${shedWindow}`;
    lines.push(`  policy    ${p.name} v${p.version}: ${window}`);
  }
  // A registered kind counts its items (core/epochs/kind-info.ts `counts`), from its record.
  const kind = epochKindInfo(e.kind);
  if (kind?.counts === 'items' && recorded !== undefined) lines.push(`  froze     ${plural(itemsOfEpoch(recorded, kind).length, `${kind.tag} item`)}`);
  else if (span === undefined) {
    lines.push(`  shed      ${plural(e.blocks, 'block')}, ${formatBytes(e.bytes)} (${formatTokens(e.tokens)} tokens)`);
    lines.push(`  refaults  ${describeRefaults(e.refaults, e.blocksRefaulted, e.blocks)}`);
  } else lines.push(...renderSpan(span, recorded?.gate), ...renderFit(recorded));
  if (e.thinking > 0) lines.push(`  thinking  ${plural(e.thinking, 'thinking block')} removed from every later request (docs/rescue.md, "Preserved thinking")`);
  if (recorded !== undefined && blocksOf(recorded).length > 0) {
    const columns = [
      { header: 'ORDINAL', align: 'right' },
      { header: 'TOOL_USE_ID', flex: true, min: 12 },
      { header: 'BYTES', align: 'right' },
      { header: 'SHA256' },
    ] as const;
    // A part of the deeper cut is named by its part: its ordinal counts that part's places.
    const ordinalOf = (b: FrozenBlock): string => (b.part === undefined ? String(b.ordinal) : `${b.part === 'tool_input' ? 'input' : 'text'} ${b.ordinal}`);
    const rows = blocksOf(recorded).map((b) => [ordinalOf(b), b.toolUseId === '' ? '-' : b.toolUseId, formatCount(b.bytes), shortId(b.sha256)]);
    const table = fitTable(columns, rows, width - 2);
    lines.push(...table.lines.map((line) => `  ${line}`), ...droppedNote(table.dropped));
  }
  if (recorded?.ledger !== undefined && recorded.ledger.length > 0) {
    lines.push(`  ledger    one row per block considered: tool#ordinal, sha256, verdict, score (docs/labels.md)`);
    lines.push(...recorded.ledger.map((row) => `    ${oneLine(renderLedgerLine(row))}`));
  }
  return lines;
}

// Shed mode (docs/shed.md): the messages an epoch shed, its handle, its pins, what a later turn
// no longer pays (priced as the provider bills it, with the basis), and the gate it passed.
function renderSpan(span: SpanSummary, gate: GateDecision | undefined): string[] {
  const lines = [
    `  shed      ${plural(span.messages, 'message')} (${span.first}..${span.last}), ${formatBytes(span.bytes)} (${formatTokens(span.tokens)} tokens)`,
    `  handle    ${span.sha256}`,
    `  pins      ${span.pins === 0 ? 'none' : plural(span.pins, 'text')}${span.tombstone ? '; the first prompt is in it' : ''}`,
    `  restored  ${describeRestores(span.restores)}`,
  ];
  const price = span.perTurn;
  if (price !== null) {
    lines.push(
      `  per turn  ${formatTokens(price.inputTokenEquivalent)} input tokens a later turn no longer pays, basis ${price.basis}`,
      `            (${formatCount(price.warmTokens)} warm at the cache-read marginal, ${formatCount(price.coldTokens)} cold at full input)`,
    );
  }
  if (gate !== undefined) {
    const turns = gate.breakEvenTurns === null ? 'never' : `in ${plural(gate.breakEvenTurns, 'turn')}`;
    const left = `${plural(gate.expectedRemainingTurns, 'turn')} left (${gate.horizonFrom === 'horizon' ? '--horizon' : 'as many as so far'})`;
    const verdict =
      gate.forcedAt === undefined
        ? `pays back ${turns}, ${gate.latch ? 'within' : 'beyond'} the ${left}`
        : `pays back ${turns}, beyond the ${left}; latched anyway at ${formatPercent(gate.forcedAt)}, past the ${formatPercent(GATE_CEILING)} ceiling`;
    lines.push(
      `  gate      ${verdict}`,
      `            (${gate.writeMult} - ${gate.readMult}) x ${formatCount(gate.invalidatedSuffixTokens)} re-written / (${gate.readMult} x ${formatCount(gate.droppedCachedTokens)} dropped)`,
    );
  }
  return lines;
}

// The reading that latched it: a usage reading against the threshold, or the API's refusal.
function describeReading(e: EpochSummary, fullness: number, threshold: number, window: number): string {
  const tokens = e.contextTokens === null ? '' : ` (${formatCount(e.contextTokens)} tokens)`;
  const ofWindow = `of a ${formatCount(window)}-token window`;
  if (e.trigger === 'command') return `ctxshed elide (no reading: ~${formatCount(e.contextTokens ?? 0)} tokens estimated from the body's bytes, ${ofWindow})`;
  if (e.trigger !== 'overflow' && e.contextTokens !== null && e.fired?.crossed === 'tokens') {
    return `${formatCount(e.contextTokens)} tokens >= token threshold ${formatCount(e.fired.thresholdTokens)} (fullness ${formatPercent(fullness)} ${ofWindow})`;
  }
  if (e.trigger !== 'overflow' || e.contextTokens === null)
    return `fullness ${formatPercent(fullness)}${tokens} >= threshold ${formatPercent(threshold)} ${ofWindow}`;
  const limit = e.limit === null ? 'the maximum' : `${formatCount(e.limit)} maximum`;
  return `the API refused the prompt: ${formatCount(e.contextTokens)} tokens > ${limit} (fullness ${formatPercent(fullness)} ${ofWindow})`;
}

// What later tool calls read back: the policy's misses (docs/rescue.md, "Refaults").
function describeRefaults(reads: number, blocksRefaulted: number, blocksElided: number): string {
  if (reads === 0) return 'none read back';
  const rate = formatPercent(refaultRateOf(blocksRefaulted, blocksElided));
  return `${formatCount(blocksRefaulted)} of ${plural(blocksElided, 'block')} read back (${rate}), ${plural(reads, 'read')}`;
}

// A restore is a refault of the span; a second one means the recent window was cut too close.
function describeRestores(restores: number): string {
  if (restores === 0) return 'never (no refault of the span)';
  if (restores === 1) return 'once (a refault of the span)';
  return `${plural(restores, 'time')}: the policy cut too close`;
}

// Near the window an epoch must bring the request under it (docs/shed.md, "Never past the window").
function renderFit(recorded: Epoch | undefined): string[] {
  const fit = recorded?.fit;
  if (fit === undefined) return [];
  const to = `to ~${formatCount(fit.estimatedTokens)} of ${formatCount(fit.limit)} tokens, recent window ${formatCount(fit.recentTokens)} tokens`;
  return [`  fit       ${fit.short === undefined ? `brought the request ${to}` : `still over the window (${fit.short}): ${to}`}`];
}
