/** Canonical JSON values: the same object whatever order its keys were written in. */
import { isRecord } from '../errors.js';

/** `value` with every object's keys in sorted order, recursively (arrays keep their order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k]);
  return out;
}
