/**
 * The record check of a policy's `deep` (docs/rescue.md "The deeper cut"): which parts besides
 * tool results an epoch may take, and the floor of each. A block's part fields are the tool-result
 * kind's own check (core/epochs/tool-results/check-record.ts).
 */
import { BLOCK_PARTS, type BlockPart } from '../core/index.js';

type Fields = Record<string, unknown>;

/** What is wrong with a policy's `deep` (absent is fine: tool results only). */
export function checkDeepCut(policy: unknown, at: string): string[] {
  if (typeof policy !== 'object' || policy === null) return [];
  const deep = (policy as Fields)['deep'];
  if (deep === undefined) return [];
  if (typeof deep !== 'object' || deep === null || Array.isArray(deep)) return [`${at}: policy.deep is not an object`];
  const d = deep as Fields;
  const problems: string[] = [];
  const parts = d['parts'];
  if (!Array.isArray(parts) || !parts.every((p) => BLOCK_PARTS.includes(p as BlockPart))) problems.push(`${at}: policy.deep.parts is not a list of parts`);
  for (const name of ['inputMinBytes', 'textMinBytes']) if (!isCount(d[name])) problems.push(`${at}: policy.deep.${name} is not a non-negative integer`);
  return problems;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
