/** `ctxshed status` as text: the conversations active lately, one line each. Pure. */
import type { StatusConversation, StatusReport } from './status-report.js';
import { oneLine, promptForDisplay, renderTable } from './format-table.js';
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

/** The status block: a header, the running proxies, the table, and what needs a look. */
export function renderStatus(report: StatusReport, stateDir: string, nowMs: number, proxies: readonly RunningProxyInfo[] = []): string {
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
    return `${lines.join('\n')}\n`;
  }
  lines.push(`last request ${formatWhen(report.lastRequestAt, nowMs)}; ${plural(report.wire.records, 'request')} in the log`);
  const columns = [
    { header: 'KEY' },
    { header: 'FULL / THRESHOLD' },
    { header: 'EPOCH', align: 'right' },
    { header: 'RESCUED', align: 'right' },
    { header: 'REQS', align: 'right' },
    { header: 'SAVED', align: 'right' },
    { header: 'SEEN', align: 'right' },
    { header: 'PROMPT', flex: true },
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
  lines.push('', ...renderTable(columns, rows));
  const notes = footnotes(report.conversations);
  lines.push('', ...notes, ...(notes.length > 0 ? [''] : []));
  const side = report.totals.sideCalls > 0 ? ` Side calls (count_tokens), in no conversation: ${formatCount(report.totals.sideCalls)}.` : '';
  lines.push(`${plural(report.conversations.length, 'conversation')} seen within ${report.recentMinutes} min of the last request.${side}`);
  lines.push("RESCUED and SAVED are the last request's: stubs in it, and bytes it went up lighter.");
  if (report.conversations.some((c) => c.thresholdFrom === 'default')) {
    lines.push(`*: no epoch yet, so the threshold shown is --rescue-pct (${formatPercent(report.defaultThreshold)}).`);
  }
  return `${lines.join('\n')}\n`;
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
