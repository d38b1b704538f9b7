/**
 * The record check of an epoch's `kind` and `items` (core/epoch-types.ts `Epoch`), the same for
 * every kind: the kind is a registered one; `items` holds that kind's list, and besides it only the
 * lists of kinds whose items go with any epoch (`alongside`: the thinking blocks it removed); every
 * list is an array, and each passes its kind's own check (`checkItems`, one per record, given the
 * lists in epoch order); an epoch has a kind's own trigger (`prefix_check`) exactly when it is of that kind.
 */
import { epochKindInfo, epochKindInfos, type EpochKindInfo } from '../core/index.js';

/** One record's checks of each kind's items, by tag, made as its epochs first name the kind. */
export type RecordChecks = Map<string, (items: readonly unknown[], at: string) => string[]>;

/** What is wrong with an epoch's `kind`, `trigger` and `items`; each list goes to its kind's check of the record (`checks`). */
export function checkEpochItems(epoch: Readonly<Record<string, unknown>>, at: string, checks: RecordChecks): string[] {
  const tag = epoch['kind'];
  const kind = typeof tag === 'string' ? epochKindInfo(tag) : undefined;
  if (kind === undefined) return [`${at}: kind ${show(tag)} is not an epoch kind's tag`];
  const problems = checkTrigger(kind, epoch['trigger'], at);
  if (!kind.byCommand && epoch['trigger'] === 'command') problems.push(`${at}: a ${kind.tag} epoch is never latched by a command (ctxshed elide)`);
  const value = epoch['items'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [...problems, `${at}: items is not an object`];
  for (const [key, list] of Object.entries(value)) {
    const name = key.slice(0, 40);
    const of = epochKindInfo(key);
    if (of === undefined || (of !== kind && of.alongside !== true)) {
      problems.push(`${at}: items.${name}: a ${kind.tag} epoch holds its own kind's items only, and those that go with any epoch`);
    } else if (!Array.isArray(list)) {
      problems.push(`${at}: items.${name} is not an array`);
    } else {
      const check = checks.get(key) ?? of.checkItems?.() ?? (() => []);
      checks.set(key, check);
      problems.push(...check(list, at));
    }
  }
  if (!Object.hasOwn(value, kind.tag)) problems.push(`${at}: items has no ${kind.tag} list`);
  return problems;
}

// A kind's own trigger is its epochs', and theirs alone.
function checkTrigger(kind: EpochKindInfo, trigger: unknown, at: string): string[] {
  const owner = epochKindInfos().find((k) => k.trigger !== undefined && k.trigger === trigger);
  if (owner !== undefined && owner !== kind) return [`${at}: a ${String(trigger)} epoch is a ${owner.tag} one, and only it`];
  if (kind.trigger !== undefined && trigger !== kind.trigger) return [`${at}: a ${kind.tag} epoch has the trigger ${kind.trigger}, not ${show(trigger)}`];
  return [];
}

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}
