/** `ctxshed migrate --store postgres://…`: create or upgrade the Postgres store's schema, and print its version. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { isPostgresUrl, PgDb, redactUrl, StoreError } from '../store/index.js';
import { CliError } from './cli-error.js';
import { writeStdout } from './read-input.js';
import { STORE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface MigrateArgs {
  store: string | undefined;
}

export const migrateCommand: CommandModule<object, MigrateArgs> = {
  command: 'migrate',
  describe: "Create or upgrade a Postgres store's schema (docs/team.md), and print its version",
  builder: (yargs) =>
    (yargs as Argv<object>)
      .option('store', { ...STORE_OPTION, describe: 'The Postgres store to migrate: postgres://user@host/db' })
      .example(
        wholeExamples([['$0 migrate --store postgres://ctxshed@db/ctxshed', 'Then every replica: ctxshed serve --store <the same URL>']]),
      ) as unknown as Argv<MigrateArgs>,
  handler: async (args: ArgumentsCamelCase<MigrateArgs>) => {
    const url = args.store;
    if (url === undefined) throw new CliError('migrate needs --store postgres://…', 2);
    if (!isPostgresUrl(url)) throw new CliError(`--store takes a postgres:// or postgresql:// URL, got ${redactUrl(url)}`, 2);
    const db = new PgDb(url);
    try {
      const { from, to } = await db.migrate();
      const did = from === to ? 'already at' : `migrated from ${from} to`;
      await writeStdout(`${db.shown}: ${did} schema version ${to}\n`);
    } catch (error) {
      if (error instanceof StoreError) throw new CliError(error.message);
      throw new CliError(db.unavailable(error).message);
    } finally {
      await db.close();
    }
  },
};
