/**
 * `ctxshed replay TRANSCRIPT.jsonl...`: what rescue and shed mode would have done to real
 * sessions, in window and in money; with `--ttl`, the cache-TTL back-test over them instead.
 */
import fs from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { PRICED_MODELS, priceOf } from '../core/price-table.js';
import type { SettingsGiven } from '../rescue/index.js';
import { readSessions, TranscriptInputError } from '../replay/read-sessions.js';
import { dayRange, DEFAULT_PROJECTS_HINT, defaultProjectsFolder, inDays, textWidth } from './replay-input.js';
import { renderHtml } from '../replay/render-html.js';
import { FIGURE_WINDOWS, renderFigures } from '../replay/render-figures.js';
import { renderTable } from '../replay/render-table.js';
import { renderWholeFigures, WHOLE_FIGURE_WINDOWS, wholeFigureRows } from '../replay/render-whole-figures.js';
import type { JobOptions } from '../replay/replay-job.js';
import { ReplayPool } from '../replay/replay-pool.js';
import { CliError } from './cli-error.js';
import { autoCompactWindowOf } from './proxy-options.js';
import { settingsFrom, withSettingsOptions, type SettingsArgs } from './settings-options.js';
import { writeStdout } from './read-input.js';
import { errorText } from '../errors.js';
import { ReplayProgress } from './replay-progress.js';
import { replayRuns } from './replay-runs.js';
import { runTtlBacktest } from './replay-ttl.js';
import { tuningOf, tuningParts, withTuningOptions, type TuningArgs } from './replay-tuning.js';
import { deepParts } from './deep-options.js';
import { wholeExamples } from './help-examples.js';

interface ReplayArgs extends TuningArgs, SettingsArgs {
  transcripts: string[] | undefined;
  since: string | undefined;
  until: string | undefined;
  json: boolean;
  compact: boolean;
  html: string | undefined;
  ttl: boolean;
  figures: boolean;
  wholeFigures: boolean;
  figureWindows: number[] | undefined;
  prefixCheck: boolean;
  priceAs: string | undefined;
}

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay [transcripts..]',
  describe: 'Replay Claude Code transcripts through rescue and shed mode and price them against the alternatives',
  builder: (yargs) =>
    withTuningOptions(withSettingsOptions(yargs as Argv<object>, { mode: false, window: { describe: 'Context window in tokens (default 200,000)' } }))
      .positional('transcripts', {
        type: 'string',
        array: true,
        describe: `Session .jsonl files, or folders of them (default: Claude Code's projects folder, ${DEFAULT_PROJECTS_HINT})`,
      })
      .option('since', { type: 'string', describe: 'Only sessions with a request on or after this day (YYYY-MM-DD or YYYYMMDD, UTC)' })
      .option('until', { type: 'string', describe: 'Only sessions with a request on or before this day (YYYY-MM-DD or YYYYMMDD, UTC)' })
      .option('prefix-check', {
        type: 'boolean',
        default: false,
        describe:
          "Replay as if the sessions' model ran the prefix check on thinking blocks (claude-opus-5-5 and the other current models): epochs then remove the thinking they invalidate",
      })
      .option('price-as', {
        type: 'string',
        describe: `Price every request as if it ran on MODEL (one of: ${PRICED_MODELS.join(', ')}); the bodies are replayed as recorded`,
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the reports as JSON' })
      .option('compact', {
        type: 'boolean',
        default: false,
        describe: "Print each table's compact form (chosen by itself where the full one is wider than the terminal, or COLUMNS, or 120 off a terminal)",
      })
      .option('html', { type: 'string', describe: 'Also write a self-contained page with charts to FILE' })
      .option('figures', {
        type: 'boolean',
        default: false,
        describe: `Print one Markdown table of the replay at several windows (default ${FIGURE_WINDOWS.join(', ')}): the table the docs quote`,
      })
      .option('whole-figures', {
        type: 'boolean',
        default: false,
        describe: `Print the whole-session figures as one Markdown table at several windows (default ${WHOLE_FIGURE_WINDOWS.join(', ')}), the table docs/economics.md quotes; with --json, its rows`,
      })
      .option('figure-windows', { type: 'number', array: true, describe: 'With --figures: the windows to replay at' })
      .option('ttl', {
        type: 'boolean',
        default: false,
        describe: 'Back-test the cache TTL instead: warm or cold predicted from each gap, against what was billed (folders walked recursively)',
      })
      .example(
        wholeExamples([
          ['$0 replay ~/.claude/projects/-home-me-proj', 'Every session of a project'],
          ['$0 replay test/fixtures/transcripts/subagent.jsonl --window 60000', 'A real session, replayed as if its window were 60,000 tokens'],
          ['$0 replay session.jsonl --json --html replay.html', 'One session, as JSON and as a page'],
          ['$0 replay session.jsonl --compact', 'The compact tables, for a narrow terminal'],
          ['$0 replay session.jsonl --horizon 10', 'Shed only where a re-write pays back within 10 more turns'],
          ['$0 replay --figures a.jsonl b.jsonl', "The docs' table: peak, runway, cost and cache writes at 200,000, 100,000 and 60,000 tokens"],
          ['$0 replay --ttl ~/.claude/projects', 'Every session of every project: did the cache TTL foresee each cold turn?'],
          ['$0 replay --ttl test/fixtures/transcripts', 'The TTL back-test on the real sessions the tests use'],
        ]),
      ) as unknown as Argv<ReplayArgs>,
  handler: async (args: ArgumentsCamelCase<ReplayArgs>) => {
    const transcripts = args.transcripts !== undefined && args.transcripts.length > 0 ? args.transcripts : [defaultProjectsFolder()];
    const days = dayRange(args.since, args.until);
    if (args.ttl) {
      if (args.html !== undefined) throw new CliError('--html draws the replay; the --ttl back-test has no page', 2);
      await runTtlBacktest(transcripts, args.json);
      return;
    }
    // The one settings value the proxy's engine takes, and replay's own beside it.
    const settings: SettingsGiven = { ...settingsFrom(args), ...tuningOf(args), ...autoCompactWindowOf(process.env) };
    const own: ReplayOwn = { prefixCheck: args.prefixCheck, priceAs: args.priceAs };
    if (args.priceAs !== undefined && priceOf(args.priceAs) === undefined)
      throw new CliError(`--price-as: no price for ${JSON.stringify(args.priceAs)}; the table knows ${PRICED_MODELS.join(', ')}`, 2);
    // The workers load while this thread reads the sessions; one core stays this thread's.
    const pool = ReplayPool.open(availableParallelism() - 1);
    const read = await readSessions(transcripts, (message) => process.stderr.write(`ctxshed: skipped ${message}\n`)).catch((error: unknown) => {
      // Not a transcript, or no such path: the arguments' fault (exit 2); anything else is I/O (exit 1).
      if (error instanceof TranscriptInputError) throw new CliError(error.message, 2);
      throw new CliError(`cannot read transcripts: ${errorText(error)}`);
    });
    const sessions = read.filter((s) => inDays(s, days));
    if (sessions.length === 0) {
      await writeStdout(`no session has a request between ${args.since ?? 'the first day'} and ${args.until ?? 'today'} (UTC days)\n`);
      return;
    }
    if (args.wholeFigures) {
      if (args.figures || args.html !== undefined)
        throw new CliError('--whole-figures prints one Markdown table (its rows with --json); it takes neither --figures nor --html', 2);
      const windows = args.figureWindows ?? [...WHOLE_FIGURE_WINDOWS];
      for (const w of windows)
        if (!(Number.isInteger(w) && w >= 1000)) throw new CliError(`--figure-windows takes whole numbers of at least 1000, not ${w}`, 2);
      const rows = wholeFigureRows(await replayAtWindows(sessions, settings, own, windows, pool));
      const command = figuresCommand(args, windows).replace('--figures', '--whole-figures');
      await writeStdout(args.json ? `${JSON.stringify({ command, rows }, null, 2)}\n` : renderWholeFigures(rows, command));
      return;
    }
    if (args.figures) {
      if (args.json || args.html !== undefined) throw new CliError('--figures prints one Markdown table; it takes neither --json nor --html', 2);
      const windows = args.figureWindows ?? [...FIGURE_WINDOWS];
      for (const w of windows)
        if (!(Number.isInteger(w) && w >= 1000)) throw new CliError(`--figure-windows takes whole numbers of at least 1000, not ${w}`, 2);
      await writeStdout(renderFigures(await replayAtWindows(sessions, settings, own, windows, pool), figuresCommand(args, windows)));
      return;
    }
    const [reports = []] = await replayRuns(sessions, [replayOptions(settings, own)], pool, new ReplayProgress(process.stderr));
    if (args.html !== undefined) {
      await fs.writeFile(args.html, renderHtml(reports));
      // On stderr: stdout may be the JSON a script reads.
      process.stderr.write(`ctxshed: wrote the page to ${path.resolve(args.html)}\n`);
    }
    if (args.json) {
      await writeStdout(`${JSON.stringify({ sessions: reports }, null, 2)}\n`);
    } else {
      await writeStdout(
        reports.length === 0 ? 'no requests found in those transcripts\n' : renderTable(reports, { width: textWidth(process.stdout), compact: args.compact }),
      );
    }
  },
};

/** The command line that makes the same table again: the files by name, and every option not at its default. */
function figuresCommand(args: ReplayArgs, windows: readonly number[]): string {
  const parts = ['ctxshed replay --figures', ...(args.transcripts ?? []).map((t) => path.basename(t))];
  if (args.figureWindows !== undefined) parts.push('--figure-windows', ...windows.map(String));
  if (args.rescuePct !== undefined) parts.push('--rescue-pct', String(args.rescuePct));
  if (args.keepRecent !== undefined) parts.push('--keep-recent', String(args.keepRecent));
  if (args.minBytes !== undefined) parts.push('--min-bytes', String(args.minBytes));
  if (args.horizon !== undefined) parts.push('--horizon', String(args.horizon));
  if (args.rescueTokens !== undefined) parts.push('--rescue-tokens', String(args.rescueTokens));
  if (args.prefixCheck) parts.push('--prefix-check');
  if (args.latchAt !== undefined) parts.push('--latch-at', args.latchAt);
  if (args.priceAs !== undefined) parts.push('--price-as', args.priceAs);
  return [...parts, ...tuningParts(args), ...deepParts(args)].join(' ');
}

/** What a replay takes besides the settings: its own options (replay-options.ts), less the state directories it makes. */
type ReplayOwn = { readonly prefixCheck: boolean; readonly priceAs: string | undefined };

/** Every session replayed at each window (each run's reports beside its window). */
async function replayAtWindows(
  sessions: Awaited<ReturnType<typeof readSessions>>,
  settings: SettingsGiven,
  own: ReplayOwn,
  windows: readonly number[],
  pool: ReplayPool,
) {
  const runs = await replayRuns(
    sessions,
    windows.map((window) => replayOptions({ ...settings, window }, own)),
    pool,
    new ReplayProgress(process.stderr),
  );
  return windows.map((window, i) => ({ window, reports: runs[i] ?? [] }));
}

/** The replay's options (each job makes its own state directories: src/replay/replay-job.ts). */
function replayOptions(settings: SettingsGiven, own: ReplayOwn): JobOptions {
  return {
    settings,
    ...(own.prefixCheck ? { prefixCheck: true } : {}),
    ...(own.priceAs === undefined ? {} : { priceAs: own.priceAs }),
  };
}
