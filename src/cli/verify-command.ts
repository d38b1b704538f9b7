/** `ctxshed verify`: check a state directory (docs/design.md invariants 5 and 8); exit 1 on any problem. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { verifyState } from '../state/verify-state.js';
import { writeStdout } from './read-input.js';
import { OWNER_OPTION, ownerDirFrom, ownerFrom, STATE_OPTION, STORE_OPTION } from './state-option.js';
import { openPgStore, StoreError, verifyPgStore } from '../store/index.js';
import type { VerifyReport } from '../state/verify-state.js';
import { CliError } from './cli-error.js';
import { wholeExamples } from './help-examples.js';

interface VerifyArgs {
  state: string | undefined;
  store: string | undefined;
  owner?: string | undefined;
  json: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify',
  describe: 'Check every elided file against its sha256 name and every epoch record against its files',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('state', STATE_OPTION)
      .option('store', STORE_OPTION)
      .option('owner', {
        ...OWNER_OPTION,
        describe: "Check one owner's conversations and originals only (the owner id an owner rule gave them, docs/team.md); default: every owner",
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
      .example(wholeExamples([['$0 verify --state state.example', 'Check the example state directory']])) as unknown as Argv<VerifyArgs>,
  handler: async (args: ArgumentsCamelCase<VerifyArgs>) => {
    const owner = args.owner === undefined ? undefined : ownerFrom(args.owner);
    const dir = args.store !== undefined ? undefined : ownerDirFrom(args.state, owner ?? '');
    const [report, shown] = dir === undefined ? await verifyStore(args.store as string, owner) : [await verifyState(dir), dir];
    if (args.json) {
      await writeStdout(
        `${JSON.stringify({ ...(dir === undefined ? { store: shown } : { state: dir }), ok: report.problems.length === 0, ...report }, null, 2)}\n`,
      );
    } else {
      const lines = [
        ...report.problems.map((p) => `problem: ${p}`),
        ...report.notes.map((n) => `note: ${n}`),
        `${report.problems.length === 0 ? 'ok' : 'FAILED'}: ${shown}: ${count(report.checked.conversations, 'conversation')}, ` +
          `${count(report.checked.epochs, 'epoch')}, ${count(report.checked.blocks, 'block')}, ` +
          `${count(report.checked.elided, 'elided file')}, ` +
          `${report.checked.spans > 0 ? `${count(report.checked.spans, 'span')}, ` : ''}${count(report.problems.length, 'problem')}`,
      ];
      await writeStdout(`${lines.join('\n')}\n`);
    }
    if (report.problems.length > 0) process.exitCode = 1;
  },
};

/** Verifies a Postgres store; its URL is only ever shown without its password. */
async function verifyStore(url: string, owner: string | undefined): Promise<[VerifyReport, string]> {
  let store: Awaited<ReturnType<typeof openPgStore>>;
  try {
    store = await openPgStore(url);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, error.code === 'STORE_BAD_URL' ? 2 : 1);
    throw error;
  }
  try {
    const shown = owner === undefined ? store.describe() : `${store.describe()} (owner ${owner === '' ? "''" : owner})`;
    return [await verifyPgStore(store.db, owner), shown];
  } finally {
    await store.close();
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
