/**
 * The record check of an epoch's `kind` and `items` (core/epoch-types.ts `Epoch`): the kind is a
 * registered one; `items` holds that kind's list, and besides it only the thinking blocks the epoch
 * removed; every list is an array, and a registered kind's items each pass its own `checkItem`
 * (the built-in kinds' items are checked across epochs by check-conversation-record.ts).
 */
import { EPOCH_KIND_INFO, epochKindInfo, type EpochKindInfo, registeredKinds } from '../core/index.js';

/** An epoch's kind and its items by tag, when they are well formed enough to read, and what is wrong. */
export interface CheckedItems {
  readonly kind?: EpochKindInfo;
  readonly items?: Readonly<Record<string, readonly unknown[]>>;
  readonly problems: string[];
}

/** What is wrong with an epoch's `kind` and `items`, and both when they can be read. */
export function checkEpochItems(epoch: Readonly<Record<string, unknown>>, at: string): CheckedItems {
  const tag = epoch['kind'];
  const kind = typeof tag === 'string' ? epochKindInfo(tag) : undefined;
  if (kind === undefined) return { problems: [`${at}: kind ${show(tag)} is not an epoch kind's tag`] };
  const value = epoch['items'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind, problems: [`${at}: items is not an object`] };
  const problems: string[] = [];
  const items: Record<string, readonly unknown[]> = {};
  for (const [key, list] of Object.entries(value)) {
    const name = key.slice(0, 40);
    if (key !== kind.tag && key !== EPOCH_KIND_INFO.thinking_only.tag) {
      problems.push(`${at}: items.${name}: a ${kind.tag} epoch holds its own kind's items and thinking blocks only`);
    } else if (!Array.isArray(list)) {
      problems.push(`${at}: items.${name} is not an array`);
    } else {
      items[key] = list;
    }
  }
  if (!Object.hasOwn(value, kind.tag)) problems.push(`${at}: items has no ${kind.tag} list`);
  const own = items[kind.tag];
  if (own !== undefined && registeredKinds().includes(kind)) {
    problems.push(...own.flatMap((item, i) => kind.checkItem?.(item, `${at} ${kind.tag} ${i}`) ?? []));
  }
  return { kind, items, problems };
}

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}
