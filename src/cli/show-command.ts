/**
 * `ctxshed show ID`: an elided original by its sha256, a shed span by its handle, or a
 * conversation's epochs by its key.
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { listElidedFiles, listSpanFiles } from '../report/read-report-state.js';
import { readWireTally } from '../report/read-wire-log.js';
import { renderConversation } from '../report/render-show.js';
import { showConversationJson, spanUsagesOf, usagesOf } from '../report/report-json.js';
import { renderSpanMarkdown } from '../core/index.js';
import { resolveId, type IdCandidate } from '../report/resolve-id.js';
import { parseHandle } from '../restore/restore-handle.js';
import { elidedPath, parseSealRecordName, spanPath, type StateDir } from '../state/layout.js';
import fs from 'node:fs/promises';
import { readContainedFile, type ContainedRead } from '../state/read-contained.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { CliError } from './cli-error.js';
import { readReportInput, JSON_OPTION, stateForReport, warn, type ReportInput } from './report-input.js';
import { writeStdout } from './read-input.js';
import { OWNER_OPTION, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';

interface ShowArgs {
  id: string;
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
  json: boolean;
}

const KIND_NAMES: Record<IdCandidate['kind'], string> = {
  elided: 'elided text  ',
  'elided-json': 'elided JSON  ',
  conversation: 'conversation ',
  span: 'shed span    ',
};

export const showCommand: CommandModule<object, ShowArgs> = {
  command: 'show <id>',
  describe: "Print an elided original (by sha256), a shed span (by its handle) or a conversation's epochs (by key); 12+ hex digits will do",
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('id', { type: 'string', demandOption: true, describe: 'A sha256, a span handle or a conversation key, full or its first 12+ hex digits' })
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', OWNER_OPTION)
      .option('json', JSON_OPTION)
      .example('$0 show cbf84ec36c85 --state state.example', 'A conversation: each epoch, when and why, and its blocks')
      .example('$0 show 8370b47dccff --state state.example', 'The text of one elided tool result, exactly as the model saw it')
      .example('$0 show 8370b47dccff --state state.example --json', 'The same with its path and where it was elided')
      .example(
        '$0 show a79312205cab --state state.example',
        'A shed span by its handle: who said what, tool calls and their results',
      ) as unknown as Argv<ShowArgs>,
  handler: async (args: ArgumentsCamelCase<ShowArgs>) => {
    // Checked before anything touches the disk: only hex, so no path can sneak in; the same
    // 12+ digits and the same words as seal, unseal and the restore tool (restore-handle.ts).
    const parsed = parseHandle(args.id);
    if (parsed.kind === 'invalid') throw new CliError(`show: ${parsed.why}`, 2);
    const id = parsed.prefix;
    const state = await stateForReport(args.state, args.store, ownerFrom(args.owner));
    const tally = await readWireTally(state.wirePath);
    const input = await readReportInput(state, tally);
    const candidates: IdCandidate[] = [
      ...(await listElidedFiles(state)),
      ...(await listSpanFiles(state)),
      ...input.summaries.map((s) => ({ id: s.key, kind: 'conversation' as const })),
    ];
    const found = resolveId(id, candidates);
    if (found.kind === 'none') {
      const sealed = await sealedStartingWith(state, id);
      if (sealed !== undefined)
        throw new CliError(
          `show: ${sealed} is sealed (ctxshed seal): its text is kept in sealed/ and not shown; ctxshed unseal ${sealed.slice(0, 12)} gives it back`,
        );
      throw new CliError(`show: no elided file, span or conversation in ${state.root} has an id starting ${id}`);
    }
    if (found.kind === 'ambiguous') {
      const list = found.matches.slice(0, 20).map((m) => `  ${KIND_NAMES[m.kind]}${m.id}`);
      const more = found.matches.length > 20 ? [`  ... and ${found.matches.length - 20} more`] : [];
      throw new CliError(`show: ${id} could be any of these; give more digits:\n${[...list, ...more].join('\n')}`);
    }
    const { match } = found;
    if (match.kind === 'conversation') await showConversation(state, input, match.id, args.json);
    else if (match.kind === 'span') await showSpan(state, input, match.id, args.json);
    else await showElided(state, input, match.id, match.kind, args.json);
  },
};

async function showConversation(state: StateDir, input: ReportInput, key: string, json: boolean): Promise<void> {
  const summary = input.summaries.find((s) => s.key === key);
  if (summary === undefined) throw new CliError(`show: conversation ${key} went away while it was being read`);
  const recordEpochs = input.records.find((r) => r.key === key)?.epochs ?? [];
  if (json) {
    const report = showConversationJson(
      summary,
      recordEpochs,
      (sha256) => elidedPath(state, sha256, 'txt'),
      (sha256) => spanPath(state, sha256, 'md'),
    );
    await writeStdout(`${JSON.stringify({ state: state.root, ...report, warnings: input.warnings }, null, 2)}\n`);
    return;
  }
  warn(input.warnings);
  await writeStdout(renderConversation(summary, recordEpochs, state, Date.now()));
}

// A span is shown as restore gives it (docs/shed.md, "Getting a span back"): rendered from its
// exact bytes just read, so what is printed is checked against the handle, unlike the `.md`.
async function showSpan(state: StateDir, input: ReportInput, sha256: string, json: boolean): Promise<void> {
  const file = spanPath(state, sha256, 'json');
  const bytes = await readShown(state, file);
  const intact = sha256Hex(bytes) === sha256;
  const text = renderSpanMarkdown(bytes, sha256);
  if (json) {
    const report = {
      state: state.root,
      kind: 'span',
      sha256,
      path: file,
      readable: spanPath(state, sha256, 'md'),
      bytes: bytes.length,
      intact,
      usedBy: spanUsagesOf(sha256, input.records),
      text,
      warnings: input.warnings,
    };
    await writeStdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    await writeStdout(text);
  }
  if (!intact) {
    process.stderr.write(`ctxshed: ${file} does not hash to its name: it was changed after ctxshed wrote it (see ctxshed verify)\n`);
    process.exitCode = 1;
  }
}

async function showElided(state: StateDir, input: ReportInput, sha256: string, kind: 'elided' | 'elided-json', json: boolean): Promise<void> {
  const file = elidedPath(state, sha256, kind === 'elided' ? 'txt' : 'json');
  const bytes = await readShown(state, file);
  const intact = sha256Hex(bytes) === sha256;
  if (json) {
    const report = {
      state: state.root,
      kind,
      sha256,
      path: file,
      bytes: bytes.length,
      intact,
      usedBy: usagesOf(sha256, kind, input.records),
      text: bytes.toString('utf8'),
      warnings: input.warnings,
    };
    await writeStdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    await writeStdout(bytes);
  }
  if (!intact) {
    process.stderr.write(`ctxshed: ${file} does not hash to its name: it was changed after ctxshed wrote it (see ctxshed verify)\n`);
    process.exitCode = 1;
  }
}

/** The bytes of a state file to print: only a regular file inside the state directory (read-contained.ts). */
async function readShown(state: StateDir, file: string): Promise<Buffer> {
  let read: ContainedRead;
  try {
    read = await readContainedFile(state.root, file);
  } catch (error) {
    throw new CliError(`show: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (read.kind === 'missing') throw new CliError(`show: cannot read ${file}: ENOENT`);
  if (read.kind === 'refused') throw new CliError(`show: refusing to read it: ${read.why} (see ctxshed verify)`);
  return read.bytes;
}

/** The sealed block whose sha256 starts with `prefix`, when exactly one does. */
async function sealedStartingWith(state: StateDir, prefix: string): Promise<string | undefined> {
  const names = await fs.readdir(state.sealedDir).catch(() => [] as string[]);
  const shas = new Set(
    names.flatMap((name) => {
      const sha = parseSealRecordName(name);
      return sha?.startsWith(prefix.toLowerCase()) === true ? [sha] : [];
    }),
  );
  return shas.size === 1 ? [...shas][0] : undefined;
}
