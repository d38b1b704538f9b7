/**
 * `ctxshed show ID`: an elided original by its sha256, a shed span by its handle, a registered
 * epoch kind's original by its sha256 (core/epochs/kind-info.ts), or a conversation's epochs by its key.
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { listShownFiles, shownExtsOf } from '../report/read-report-state.js';
import { readWireTally } from '../report/read-wire-log.js';
import { renderConversation } from '../report/render-show.js';
import { showConversationJson, usagesOfFile } from '../report/report-json.js';
import { epochKindInfo } from '../core/index.js';
import { resolveId, type IdCandidate } from '../report/resolve-id.js';
import { parseHandle } from '../restore/restore-handle.js';
import { originalPathOf } from '../state/originals-folder.js';
import { elidedPath, parseSealRecordName, spanPath, type StateDir } from '../state/layout.js';
import fs from 'node:fs/promises';
import { readContainedFile, type ContainedRead } from '../state/read-contained.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { CliError } from './cli-error.js';
import { readReportInput, JSON_OPTION, reportWidth, stateForReport, warn, type ReportInput } from './report-input.js';
import { writeStdout } from './read-input.js';
import { OWNER_OPTION, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface ShowArgs {
  id: string;
  state: string | undefined;
  store?: string | undefined;
  owner?: string | undefined;
  json: boolean;
}

const KIND_NAME_WIDTH = 12;

export const showCommand: CommandModule<object, ShowArgs> = {
  command: 'show <id>',
  describe:
    "Print an elided original (by sha256), a shed span (by its handle), a registered kind's original (by sha256) or a conversation's epochs (by key); 12+ hex digits will do",
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('id', { type: 'string', demandOption: true, describe: 'A sha256, a span handle or a conversation key, full or its first 12+ hex digits' })
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', OWNER_OPTION)
      .option('json', JSON_OPTION)
      .example(
        wholeExamples([
          ['$0 show cbf84ec36c85 --state state.example', 'A conversation: each epoch, when and why, and its blocks'],
          ['$0 show 8370b47dccff --state state.example', 'The text of one elided tool result, exactly as the model saw it'],
          ['$0 show 8370b47dccff --state state.example --json', 'The same with its path and where it was elided'],
          ['$0 show a79312205cab --state state.example', 'A shed span by its handle: who said what, tool calls and their results'],
        ]),
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
      ...(await listShownFiles(state, input.records)),
      ...input.summaries.map((s) => ({ id: s.key, kind: 'conversation' as const })),
    ];
    const found = resolveId(id, candidates);
    if (found.kind === 'none') {
      const sealed = await sealedStartingWith(state, id);
      if (sealed !== undefined)
        throw new CliError(
          `show: ${sealed} is sealed (ctxshed seal): its text is kept in sealed/ and not shown; ctxshed unseal ${sealed.slice(0, 12)} gives it back`,
        );
      throw new CliError(`show: no elided file, span, registered kind's original or conversation in ${state.root} has an id starting ${id}`);
    }
    if (found.kind === 'ambiguous') {
      const list = found.matches.slice(0, 20).map((m) => `  ${labelOf(m, input.records).padEnd(KIND_NAME_WIDTH)} ${m.id}`);
      const more = found.matches.length > 20 ? [`  ... and ${found.matches.length - 20} more`] : [];
      throw new CliError(`show: ${id} could be any of these; give more digits:\n${[...list, ...more].join('\n')}`);
    }
    const { match } = found;
    if (match.kind === 'conversation') await showConversation(state, input, match.id, args.json);
    else await showFile(state, input, shownFile(state, input.records, match), args.json);
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
  await writeStdout(renderConversation(summary, recordEpochs, state, Date.now(), reportWidth()));
}

/** One original file as `show` prints it: where it is, who used it, and how it is read. */
interface ShownFile {
  /** Its kind's name for it (`elided`, `elided-json`, `span`, a registered kind's tag): `kind` in `--json`. */
  readonly kind: string;
  readonly sha256: string;
  readonly path: string;
  /** Where its readable rendering is kept beside it (a span's `.md`), when its kind renders. */
  readonly readable?: string;
  readonly usedBy: readonly object[];
  /** Its readable rendering, made from its exact bytes; absent: the exact bytes are printed. */
  readonly render?: (bytes: Uint8Array, sha256: string) => string;
}

/** What an ambiguous id's list calls a match: its kind's word for the file, or `conversation`. */
function labelOf(match: IdCandidate, records: ReportInput['records']): string {
  const info = match.of === undefined ? undefined : epochKindInfo(match.of.tag);
  if (info === undefined || match.of === undefined) return match.kind;
  return shownExtsOf(info, records).get(match.of.ext)?.label ?? info.tag;
}

/**
 * What the id names, as a file to print: one of a kind's exact files, in its folder, used by the
 * items that name it, rendered when the kind renders (a span, as restore gives it, made from the
 * exact bytes just read, so what is printed is checked against the handle, unlike the `.md`).
 */
function shownFile(state: StateDir, records: ReportInput['records'], match: IdCandidate): ShownFile {
  const sha256 = match.id;
  const info = match.of === undefined ? undefined : epochKindInfo(match.of.tag);
  if (match.kind !== 'original' || match.of === undefined || info === undefined) throw new CliError(`show: ${sha256} names no file`);
  const { ext } = match.of;
  const kind = shownExtsOf(info, records).get(ext)?.kind ?? info.tag;
  const path = originalPathOf(state, info.originals, sha256, ext);
  const usedBy = usagesOfFile(info, sha256, ext, records);
  if (info.render === undefined) return { kind, sha256, path, usedBy };
  return { kind, sha256, path, readable: originalPathOf(state, info.originals, sha256, 'md'), usedBy, render: info.render };
}

/**
 * Prints one original: its exact bytes, or the rendering made from them just now when its kind
 * renders them; with `json`, its path, size, whether it hashes to its name and who used it.
 */
async function showFile(state: StateDir, input: ReportInput, shown: ShownFile, json: boolean): Promise<void> {
  const { kind, sha256, path: file, readable, usedBy, render } = shown;
  const bytes = await readShown(state, file);
  const intact = sha256Hex(bytes) === sha256;
  const text = render === undefined ? undefined : render(bytes, sha256);
  if (json) {
    const report = {
      state: state.root,
      kind,
      sha256,
      path: file,
      ...(readable === undefined ? {} : { readable }),
      bytes: bytes.length,
      intact,
      usedBy,
      text: text ?? bytes.toString('utf8'),
      warnings: input.warnings,
    };
    await writeStdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    await writeStdout(text ?? bytes);
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
