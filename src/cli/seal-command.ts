/** `ctxshed seal SHA` and `ctxshed unseal SHA`: refuse, or allow again, giving a block's text back to the agent. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { restorableKinds } from '../restore/restorable-kinds.js';
import { parseHandle } from '../restore/restore-handle.js';
import { resolveHandle } from '../restore/resolve-handle.js';
import { ELIDED_DIR_NAME, type StateDir } from '../state/layout.js';
import { sealBlock, unsealBlock } from '../state/seal-block.js';
import { CliError } from './cli-error.js';
import { writeStdout } from './read-input.js';
import { stateForReport } from './report-input.js';
import { STATE_OPTION } from './state-option.js';
import { wholeExamples } from './help-examples.js';

interface SealArgs {
  sha: string;
  reason: string | undefined;
  state: string | undefined;
}

export const sealCommand: CommandModule<object, SealArgs> = {
  command: 'seal <sha>',
  describe: 'Seal an elided block: its text moves to <state>/sealed/, kept, and is no longer given back to the agent',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('sha', { type: 'string', demandOption: true, describe: 'The sha256 of the block (its stub names it), or its first 12+ hex digits' })
      .option('reason', { type: 'string', describe: 'Why, kept in the seal record' })
      .option('state', STATE_OPTION)
      .example(
        wholeExamples([['$0 seal 8370b47dccff --reason token', 'Refuse restore and Read of that block from now on, saying why']]),
      ) as unknown as Argv<SealArgs>,
  handler: async (args: ArgumentsCamelCase<SealArgs>) => {
    const state = await stateForReport(args.state);
    const sha = await resolveOne(state, args.sha, 'seal');
    const outcome = await sealBlock(state, sha, { reason: args.reason ?? null, now: new Date().toISOString() });
    if (outcome.kind === 'unknown') throw new CliError(`seal: no elided text in ${state.root} has the sha256 ${sha}`);
    const { record } = outcome;
    const was = outcome.kind === 'already_sealed' ? `already sealed since ${record.sealedAt}` : 'sealed';
    await writeStdout(
      `${was}: ${sha} (${record.bytes} bytes) is in ${state.sealedDir}/ now; restore refuses it and a Read of its stub's path finds no file. ` +
        `ctxshed unseal ${sha.slice(0, 12)} gives it back.\n`,
    );
  },
};

export const unsealCommand: CommandModule<object, Omit<SealArgs, 'reason'>> = {
  command: 'unseal <sha>',
  describe: 'Undo a seal: the text moves back to <state>/elided/, where the agent can read it again',
  builder: (yargs) =>
    (yargs as Argv<object>)
      .positional('sha', { type: 'string', demandOption: true, describe: 'The sha256 of a sealed block, or its first 12+ hex digits' })
      .option('state', STATE_OPTION)
      .example(wholeExamples([['$0 unseal 8370b47dccff', 'Let the agent restore or Read that block again']])) as unknown as Argv<Omit<SealArgs, 'reason'>>,
  handler: async (args: ArgumentsCamelCase<Omit<SealArgs, 'reason'>>) => {
    const state = await stateForReport(args.state);
    const sha = await resolveOne(state, args.sha, 'unseal');
    const outcome = await unsealBlock(state, sha);
    switch (outcome.kind) {
      case 'unsealed':
        await writeStdout(`unsealed: ${sha} (${outcome.record.bytes} bytes) is back in ${state.elidedDir}/; restore and Read give it again.\n`);
        return;
      case 'not_sealed':
        if (outcome.elided) {
          await writeStdout(`not sealed: ${sha} is in ${state.elidedDir}/ already.\n`);
          return;
        }
        throw new CliError(`unseal: no sealed block in ${state.root} has the sha256 ${sha}`);
      case 'missing':
        throw new CliError(`unseal: the seal record of ${sha} is there but its text is in neither sealed/ nor elided/; run ctxshed verify`);
    }
  },
};

/** The one full sha256 a typed handle names, among elided and sealed blocks; a CliError otherwise. */
async function resolveOne(state: StateDir, input: string, command: string): Promise<string> {
  const parsed = parseHandle(input);
  if (parsed.kind === 'invalid') throw new CliError(`${command}: ${parsed.why}`, 2);
  const resolved = await resolveHandle(state, parsed.prefix, restorableKinds());
  if (resolved.kind === 'none') throw new CliError(`${command}: no elided or sealed block in ${state.root} has a sha256 starting ${parsed.prefix}`);
  if (resolved.kind === 'ambiguous')
    throw new CliError(`${command}: ${parsed.prefix} starts ${resolved.handles.length} sha256s (${resolved.handles.join(', ')}); give more digits`);
  // Only elided/'s files move to sealed/. A span's stub keeps naming spans/, and the engine sends a
  // span whose files are gone in full again (span_file_missing): moving them would undo the very
  // thing a seal is for; so for any other kind's original.
  if (resolved.source !== undefined && resolved.source.folder !== ELIDED_DIR_NAME)
    throw new CliError(
      `${command}: ${resolved.handle} is a ${resolved.source.name}; ctxshed seals elided tool results only, not ${resolved.source.name}s (docs/shed.md)`,
    );
  return resolved.handle;
}
