/**
 * The record check of what the deeper cut adds (docs/rescue.md "The deeper cut"): a frozen block's
 * part fields (its part, place, path and, for JSON text, the strings it stubs; a tool input's tool,
 * main input and route back), and a policy's `deep`. A block without `part` is a tool result's and
 * has none of them.
 */
import { BLOCK_PARTS, blockKeyOf, type BlockPart } from '../core/index.js';

type Fields = Record<string, unknown>;

const PART_FIELDS = ['messageIndex', 'blockIndex', 'path', 'within'] as const;
const PART_ROUTES = ['restore', 'elided-file'];

/** What is wrong with a block's part fields, as strings (`at` names the block); none for a tool result's block. */
export function checkPartFields(block: Fields, at: string): string[] {
  const part = block['part'];
  if (part === undefined) {
    const stray = PART_FIELDS.filter((name) => block[name] !== undefined);
    return stray.length === 0 ? [] : [`${at}: has ${stray.join(', ')} but no part`];
  }
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: ${problem}`));
  need(BLOCK_PARTS.includes(part as BlockPart), `part ${JSON.stringify(part)} is not one of ${BLOCK_PARTS.join(', ')}`);
  need(isCount(block['messageIndex']), 'messageIndex is not a non-negative integer');
  need(isCount(block['blockIndex']), 'blockIndex is not a non-negative integer');
  need(isPath(block['path']), 'path is not a list of keys and positions');
  const within = block['within'];
  need(within === undefined || (Array.isArray(within) && within.length > 0 && within.every(isPath)), 'within is not a list of paths');
  need(block['label'] === undefined && block['rule'] === undefined, 'a part carries no label or rule');
  need(PART_ROUTES.includes(block['refetch'] as string), `refetch ${JSON.stringify(block['refetch'])} is not restore or elided-file`);
  if (part === 'tool_input') {
    need(typeof block['tool'] === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(block['tool']), 'tool is not a tool name');
    need(typeof block['input'] === 'string', 'input is not a string');
  } else {
    need(block['tool'] === undefined && block['input'] === undefined && block['within'] === undefined, 'an assistant text names no tool, input or within');
  }
  return problems;
}

/** The name a block is elided under once: its ordinal, or a part's place (core/block-key.ts). */
export function blockNameOf(block: Fields): string | undefined {
  if (block['part'] === undefined) return isCount(block['ordinal']) ? String(block['ordinal']) : undefined;
  return blockKeyOf(block as Parameters<typeof blockKeyOf>[0]);
}

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

function isPath(value: unknown): boolean {
  return Array.isArray(value) && value.every((step) => typeof step === 'string' || isCount(step));
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
