/**
 * The record check of the tool-result kind's items (docs/state.md, "Each block"): each block's
 * fields, its labels (policy version 3, docs/labels.md) and its part fields (the deeper cut,
 * docs/rescue.md), and that a block is elided once: a tool result by its ordinal, a part by its place.
 */
import { BLOCK_PARTS, type BlockPart } from '../../epoch-types.js';
import { blockKeyOf } from '../../block-key.js';
import { LABEL_RULES, REFETCH_ROUTES } from '../../labels/label-types.js';

type Fields = Record<string, unknown>;

const PART_FIELDS = ['messageIndex', 'blockIndex', 'path', 'within'] as const;
const PART_ROUTES = ['restore', 'elided-file'];

/** The check of one record's blocks, epoch by epoch in order (`at` names the epoch): it keeps what earlier epochs elided. */
export function blocksChecker(): (blocks: readonly unknown[], at: string) => string[] {
  const seen = new Set<string>();
  return (blocks, at) => blocks.flatMap((block, i) => checkBlock(block, `${at} block ${i}`, seen));
}

function checkBlock(block: unknown, at: string, seen: Set<string>): string[] {
  if (!isObject(block)) return [`${at} is not an object`];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: ${problem}`));
  const ordinal = block['ordinal'];
  need(isCount(ordinal), 'ordinal is not a non-negative integer');
  // A tool result is elided once by its ordinal; a part of the deeper cut once by its place.
  const name = blockNameOf(block);
  const what = block['part'] === undefined ? `ordinal ${show(ordinal)}` : `${show(block['part'])} at ${show(name)}`;
  need(name === undefined || !seen.has(name), `${what} is already elided by an earlier block`);
  if (name !== undefined) seen.add(name);
  need(typeof block['toolUseId'] === 'string', 'toolUseId is not a string');
  need(isCount(block['bytes']), 'bytes is not a non-negative integer');
  need(isSha256(block['sha256']), 'sha256 is not 64 lowercase hex digits');
  need(isCount(block['jsonBytes']), 'jsonBytes is not a non-negative integer');
  need(isSha256(block['jsonSha256']), 'jsonSha256 is not 64 lowercase hex digits');
  const raw = block['rawSha256'];
  need(raw === undefined || isSha256(raw), 'rawSha256 is not 64 lowercase hex digits');
  return [...problems, ...(block['part'] === undefined ? checkLabelFields(block, at) : []), ...checkPartFields(block, at)];
}

/** The name a block is elided under once: its ordinal, or a part's place (core/block-key.ts); none without an ordinal. */
function blockNameOf(block: Fields): string | undefined {
  if (!isCount(block['ordinal'])) return undefined;
  if (block['part'] === undefined) return String(block['ordinal']);
  return blockKeyOf(block as Parameters<typeof blockKeyOf>[0]);
}

// A version 3 block's label fields are what its stub is rendered from: all of them, or none.
function checkLabelFields(block: Fields, at: string): string[] {
  const names = ['label', 'rule', 'tool', 'input', 'refetch'] as const;
  const present = names.filter((name) => block[name] !== undefined);
  if (present.length === 0) return [];
  if (present.length < names.length) return [`${at}: has ${present.join(', ')} but not ${names.filter((n) => !present.includes(n)).join(', ')}`];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string): void => void (ok || problems.push(`${at}: ${problem}`));
  need(block['label'] === 'pointer' || block['label'] === 'drop', 'label is not "pointer" or "drop"');
  need(LABEL_RULES.includes(block['rule'] as never), 'rule is not a known rule');
  need(isToolName(block['tool']), 'tool is not a tool name');
  need(typeof block['input'] === 'string', 'input is not a string');
  need(REFETCH_ROUTES.includes(block['refetch'] as never), 'refetch is not a known route');
  return problems;
}

/** What is wrong with a block's part fields (`at` names the block); a tool result's block has none of them. */
function checkPartFields(block: Fields, at: string): string[] {
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
    need(isToolName(block['tool']), 'tool is not a tool name');
    need(typeof block['input'] === 'string', 'input is not a string');
  } else {
    need(block['tool'] === undefined && block['input'] === undefined && block['within'] === undefined, 'an assistant text names no tool, input or within');
  }
  return problems;
}

function isToolName(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(value);
}

function isPath(value: unknown): boolean {
  return Array.isArray(value) && value.every((step) => typeof step === 'string' || isCount(step));
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isSha256(value: unknown): boolean {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}
