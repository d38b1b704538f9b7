/**
 * The record check of an epoch's `items`, the one field a registered kind keeps its items in
 * (core/epoch-types.ts `ItemsEpoch`): one key, a registered kind's tag, whose list each item of
 * passes the kind's own `checkItem`. Absent is fine: the built-in kinds never write it.
 */
import { epochKindInfo, type EpochKindInfo, registeredKinds } from '../core/index.js';

/** What is wrong with an epoch's `items`, and the kind it names when it names a registered one. */
export function checkKindItems(value: unknown, at: string): { readonly problems: string[]; readonly kind?: EpochKindInfo } {
  if (value === undefined) return { problems: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problems: [`${at}: items is not an object`] };
  const tags = Object.keys(value);
  if (tags.length !== 1) return { problems: [`${at}: items holds ${tags.length} kinds, not one`] };
  const tag = tags[0] as string;
  const kind = epochKindInfo(tag);
  if (kind === undefined || !registeredKinds().includes(kind)) {
    return { problems: [`${at}: items.${tag.slice(0, 40)} is not a registered epoch kind's`] };
  }
  const list = (value as Record<string, unknown>)[tag];
  if (!Array.isArray(list)) return { problems: [`${at}: items.${tag} is not an array`], kind };
  const problems = list.flatMap((item: unknown, i) => kind.checkItem?.(item, `${at} ${tag} ${i}`) ?? []);
  return { problems, kind };
}
