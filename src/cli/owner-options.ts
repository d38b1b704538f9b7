/**
 * The flags of who owns a request and where the proxy binds (docs/team.md): `--host`,
 * `--owner-from credential`, `--owner-header NAME`. Binding anything but loopback needs an owner
 * rule: without one, every caller would share one person's state.
 */
import type { Argv } from 'yargs';
import { isLoopbackBind } from '../proxy/loopback.js';
import { checkOwnerHeaderName, NO_OWNER_RULE, type OwnerRule } from '../proxy/owner-rule.js';
import { LOOPBACK } from '../proxy/start-proxy.js';
import { CliError } from './cli-error.js';

/** The parsed flags. */
export interface OwnerArgs {
  host?: string | undefined;
  ownerFrom?: string | undefined;
  ownerHeader?: string | undefined;
}

/** Where to bind and who owns a request. */
export interface BindSettings {
  readonly host: string;
  readonly ownerRule: OwnerRule;
}

/** Adds the flags to a command. */
export function withOwnerOptions<T>(yargs: Argv<T>): Argv<T & OwnerArgs> {
  return yargs
    .option('host', {
      type: 'string',
      describe: `Address to bind (default: ${LOOPBACK}); anything but loopback needs --owner-from or --owner-header (docs/team.md)`,
    })
    .option('owner-from', {
      type: 'string',
      describe: "Keep each owner's state apart, the owner being a hash of the request's credential (x-api-key or Authorization: Bearer); choices: credential",
    })
    .option('owner-header', {
      type: 'string',
      describe: "Keep each owner's state apart, the owner being a hash of this header, which your own gateway sets (stripped before forwarding)",
    }) as unknown as Argv<T & OwnerArgs>;
}

/** The bind settings the flags name; a usage error (exit 2) for a bad or unsafe combination. */
export function bindFrom(args: OwnerArgs): BindSettings {
  const ownerRule = ownerRuleFrom(args);
  const host = args.host ?? LOOPBACK;
  if (host.trim() === '') throw new CliError('--host takes an address to bind, not an empty one', 2);
  if (!isLoopbackBind(host) && ownerRule.kind === 'none') {
    throw new CliError(
      `--host ${host} would serve other machines with one person's state: add --owner-from credential or --owner-header NAME (docs/team.md), or bind loopback`,
      2,
    );
  }
  return { host, ownerRule };
}

function ownerRuleFrom(args: OwnerArgs): OwnerRule {
  if (args.ownerFrom !== undefined && args.ownerHeader !== undefined) throw new CliError('give --owner-from or --owner-header, not both', 2);
  if (args.ownerFrom !== undefined) {
    if (args.ownerFrom !== 'credential') throw new CliError(`--owner-from takes credential, not ${JSON.stringify(args.ownerFrom)}`, 2);
    return { kind: 'credential' };
  }
  if (args.ownerHeader !== undefined) {
    const problem = checkOwnerHeaderName(args.ownerHeader);
    if (problem !== undefined) throw new CliError(problem, 2);
    return { kind: 'header', name: args.ownerHeader.toLowerCase() };
  }
  return NO_OWNER_RULE;
}
