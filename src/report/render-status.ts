/** `ctxshed status` as text: the conversations active lately, one line each. Pure. */
import type { StatusConversation, StatusReport } from './status-report.js';
import { fitLines } from './fit-lines.js';
import { droppedNote, fitTable, oneLine, promptForDisplay, REPORT_WIDTH } from './format-table.js';
import { formatAgo, formatLocalTime, formatWhen } from './format-time.js';
import { formatBytes, formatCount, formatPercent, plural } from './format-units.js';
import { NO_PROMPT } from './render-ls.js';
import { shortId } from './resolve-id.js';

/** A proxy running over the state directory, as its file in proxies/ says. */
export interface RunningProxyInfo {
  readonly pid: number;
  readonly command: string;
  readonly metricsUrl: string;
}

/** The status block: a header, the running proxies, the table, and what needs a look, laid out to `width`. */
export function renderStatus(report: StatusReport, stateDir: string, nowMs: number, proxies: readonly RunningProxyInfo[] = [], width = REPORT_WIDTH): string {
  const lines = [`ctxshed status  ${stateDir}  ${formatLocalTime(new Date(nowMs).toISOString())}`];
  for (const p of proxies) lines.push(`${p.command} (pid ${p.pid}) running: metrics at ${p.metricsUrl}`);
  if (report.stateUnavailable !== null) {
    const { since, detail } = report.stateUnavailable;
    lines.push(`! the proxy could not use the state directory since ${formatWhen(since, nowMs)}: ${oneLine(detail)}`);
  }
  if (report.originalsChanged !== undefined && report.originalsChanged !== null) {
    const { count, last, at } = report.originalsChanged;
    lines.push(
      `! ${count} original${count === 1 ? ' was' : 's were'} not what ${count === 1 ? 'its name says' : 'their names say'} (run ctxshed verify); the last, ${formatWhen(at, nowMs)}: ${oneLine(last)}`,
    );
  }
  if (report.lastRequestAt === null) {
    lines.push('No requests in the wire log yet.');
    return `${fitLines(lines, width).join('\n')}\n`;
  }
  lines.push(`last request ${formatWhen(report.lastRequestAt, nowMs)}; ${plural(report.wire.records, 'request')} in the log`);
  // The prompt takes the room left (two lines of it, then cut); on a narrow terminal the columns
  // give way, first to last: REQS, RESCUED, SEEN, SAVED, EPOCH.
  const columns = [
    { header: 'KEY' },
    { header: 'FULL / THRESHOLD' },
    { header: 'EPOCH', align: 'right', drop: 1 },
    { header: 'RESCUED', align: 'right', drop: 4 },
    { header: 'REQS', align: 'right', drop: 5 },
    { header: 'SAVED', align: 'right', drop: 2 },
    { header: 'SEEN', align: 'right', drop: 3 },
    { header: 'PROMPT', flex: true, min: 20, wrap: 2 },
  ] as const;
  const rows = report.conversations.map((c) => [
    shortId(c.key),
    `${formatPercent(c.fullness)} / ${formatPercent(c.threshold)}${c.thresholdFrom === 'default' ? '*' : ''}`,
    c.lastEpoch === null ? '-' : `#${c.lastEpoch.n} ${formatAgo(c.lastEpoch.latchedAt, nowMs)}`,
    formatCount(c.lastRequest.rescued),
    formatCount(c.requests),
    formatBytes(c.lastRequest.bytesSaved),
    formatAgo(c.lastSeen, nowMs),
    c.firstPrompt === null ? NO_PROMPT : promptForDisplay(c.firstPrompt),
  ]);
  const table = fitTable(columns, rows, width);
  lines.push('', ...table.lines, ...droppedNote(table.dropped));
  const notes = footnotes(report.conversations);
  lines.push('', ...notes, ...(notes.length > 0 ? [''] : []));
  const side = report.totals.sideCalls > 0 ? ` Side calls (count_tokens), in no conversation: ${formatCount(report.totals.sideCalls)}.` : '';
  lines.push(`${plural(report.conversations.length, 'conversation')} seen within ${report.recentMinutes} min of the last request.${side}`);
  lines.push(...lastRequestLegend(table.dropped));
  if (report.conversations.some((c) => c.thresholdFrom === 'default')) {
    lines.push(`*: no epoch yet, so the threshold shown is --rescue-pct (${formatPercent(report.defaultThreshold)}).`);
  }
  return `${fitLines(lines, width).join('\n')}\n`;
}

// What RESCUED and SAVED count, for those of them the table shows.
function lastRequestLegend(dropped: readonly string[]): string[] {
  const rescued = !dropped.includes('RESCUED');
  const saved = !dropped.includes('SAVED');
  if (rescued && saved) return ["RESCUED and SAVED are the last request's: stubs in it, and bytes it went up lighter."];
  if (rescued) return ["RESCUED is the last request's: stubs in it."];
  if (saved) return ["SAVED is the last request's: bytes it went up lighter."];
  return [];
}

function footnotes(conversations: readonly StatusConversation[]): string[] {
  return conversations.flatMap((c) => {
    const last = c.lastRequest;
    const notes: string[] = [];
    if (last.reason !== null && last.reason !== 'no_epoch') notes.push(`${shortId(c.key)}: the last request went through unchanged: ${last.reason}`);
    if (last.status >= 400) notes.push(`${shortId(c.key)}: the last request got HTTP ${last.status}`);
    // A shed conversation's stubs stand for spans: say what its last epoch shed, and what RESCUED counts.
    const epoch = c.lastEpoch;
    if (epoch !== null && epoch.span !== null) {
      notes.push(
        `${shortId(c.key)}: shed mode: epoch #${epoch.n} shed ${plural(epoch.span.messages, 'message')} (${formatBytes(epoch.span.bytes)}); RESCUED counts span stubs`,
      );
    }
    return notes;
  });
}
