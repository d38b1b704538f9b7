/** `ctxshed elide BODY.json`: act as if an epoch latched now on this request body. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { freezeLabelled, indexAnyApi, labelBlocks, planElision, rewriteRequest } from '../core/index.js';
import { layoutPaths } from '../state/layout.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { CliError } from './cli-error.js';
import { recordElide } from './record-elide.js';
import { readInput, writeStdout } from './read-input.js';
import { openStateOrFail, STATE_OPTION, stateDirFrom } from './state-option.js';
import { engineSettingsOf } from '../rescue/index.js';
import { policyFrom, withPolicyOptions, type PolicyArgs } from './settings-options.js';
import { wholeExamples } from './help-examples.js';

interface ElideArgs extends PolicyArgs {
  body: string;
  state: string | undefined;
  dryRun: boolean;
}

export const elideCommand: CommandModule<object, ElideArgs> = {
  command: 'elide <body>',
  describe: 'Elide the old tool results of one request body, as an epoch latched now would, and record that epoch',
  builder: (yargs) =>
    withPolicyOptions(yargs as Argv<object>)
      .positional('body', { type: 'string', demandOption: true, describe: 'A request body: Messages, Responses or chat (JSON file, or - for stdin)' })
      .option('state', STATE_OPTION)
      .option('dry-run', { type: 'boolean', default: false, describe: 'Print the plan as JSON; write nothing' })
      .example(
        wholeExamples([
          ['$0 elide body.json --dry-run', 'Show which tool results would be elided'],
          ['$0 elide body.json --state /tmp/st > small.json', 'Write the elided files and the rewritten body'],
        ]),
      ) as unknown as Argv<ElideArgs>,
  handler: async (args: ArgumentsCamelCase<ElideArgs>) => {
    // The policy a rescue epoch latched now would take: the flags given, else rescue mode's defaults.
    const { policy } = engineSettingsOf(policyFrom(args)).rescue;
    const body = await readInput(args.body);
    const { api, outcome: indexed } = indexAnyApi(body);
    if (indexed.kind === 'failed') throw new CliError(`${args.body}: not a Messages API body (${indexed.reason}: ${indexed.detail})`);
    const plan = planElision(body, indexed.index, policy, sha256Hex);
    // Labelled by the local rules, as a new epoch is (docs/labels.md).
    const { blocks: frozen, ledger } = freezeLabelled(plan, labelBlocks({ body, index: indexed.index, candidates: plan, sha256: sha256Hex }));
    const state = args.dryRun ? layoutPaths(stateDirFrom(args.state)) : await openStateOrFail(args.state);
    // Files, then the record naming them (as a latch writes them), then the stubs that name both.
    const stubbed = args.dryRun
      ? frozen
      : await recordElide(state, { body, api, index: indexed.index, plan, blocks: frozen, ledger, policy, source: args.body }, new Date());
    const outcome = rewriteRequest(body, stubbed, { elidedDir: state.elidedDir, sha256: sha256Hex, index: indexed.index, api });
    if (outcome.kind === 'passthrough' && outcome.reason !== 'no_epoch') {
      throw new CliError(`${args.body}: the rewrite fell back to the original (${outcome.reason}: ${outcome.detail})`);
    }
    if (args.dryRun) {
      const blocks = frozen.map(({ ordinal, toolUseId, bytes, sha256, label, rule, tool }) => ({ ordinal, toolUseId, bytes, sha256, label, rule, tool }));
      await writeStdout(`${JSON.stringify({ blocks, bytesFreed: body.length - outcome.body.length }, null, 2)}\n`);
      return;
    }
    await writeStdout(outcome.body);
  },
};
