/**
 * The stubs of policy version 3: a `pointer` names the tool call, its main input and the way
 * back; a `drop` is the shortest, naming the tool, why it was dropped and where the text is
 * kept. Both are pure functions of the frozen block and the elided folder, and never quote the
 * block's text (docs/labels.md "Stubs").
 */
import type { FrozenBlock } from './epoch-types.js';
import { DROP_STUB_PREFIX, elidedTextPath, escapeRegExp, isGatewayDir, rawSuffix, RAW_SUFFIX_PATTERN, STUB_PREFIX } from './stub-paths.js';
import type { LabelRule, Refetch, StubLabel } from './labels/label-types.js';
import { UNKNOWN_TOOL } from './labels/label-types.js';

/** A frozen block of a version 3 epoch: one that carries its label. */
export type LabelledBlock = FrozenBlock & { readonly label: StubLabel };

/** What a version 3 stub says beyond bytes and hashes. */
export interface ParsedLabelStub {
  readonly bytes: number;
  readonly sha256: string;
  readonly rawSha256?: string;
  readonly label: StubLabel;
  readonly tool: string;
  readonly input: string;
  readonly refetch?: Refetch;
  readonly rule?: LabelRule;
}

/** Why a block was dropped, in the words its stub uses. */
const DROP_REASONS: Readonly<Record<LabelRule, string>> = {
  superseded: 'superseded by a later call',
  duplicate: 'the same text appears later',
  retried: 'the call was retried',
  secret: 'it holds a secret',
  model: 'not needed for the task',
  default: 'dropped',
};

/** How each route back is said; `{file}` is the elided file's path. */
const ROUTES: Readonly<Record<Refetch, readonly [before: string, after: string]>> = {
  'same-call': ['make the same call (for its current output) or read ', ' (this output)'],
  'elided-file': ['read ', ''],
  restore: ["call ctxshed's restore tool with this sha256 or read ", ''],
};

/** Each route back in a gateway's stubs (docs/team.md): the restore tool, never a path on the gateway's disk. */
const GATEWAY_ROUTES: Readonly<Record<Refetch, string>> = {
  'same-call': "make the same call (for its current output) or call ctxshed's restore tool with this sha256 (this output)",
  'elided-file': "call ctxshed's restore tool with this sha256 (the ctxshed gateway keeps the text)",
  restore: "call ctxshed's restore tool with this sha256",
};

/** Where a gateway's drop stub says the text is. */
const GATEWAY_DROP_KEPT = 'text kept by the ctxshed gateway (restore tool, this sha256)';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;

/** The stub text of a labelled block. */
export function renderLabelStub(block: LabelledBlock, elidedDir: string): string {
  if (isGatewayDir(elidedDir)) return renderGatewayLabelStub(block, elidedDir);
  const call = describeCall(block);
  const file = elidedTextPath(elidedDir, block.sha256);
  const raw = rawSuffix(elidedDir, block.rawSha256);
  if (block.label === 'drop') {
    return `${DROP_STUB_PREFIX}${call} (${DROP_REASONS[block.rule ?? 'default']}), ${block.bytes} bytes; text kept in ${file}${raw}]`;
  }
  const [before, after] = ROUTES[block.refetch ?? 'elided-file'];
  return `${STUB_PREFIX}${call}; ${block.bytes} bytes, sha256 ${block.sha256}; to see it again, ${before}${file}${after}${raw}]`;
}

// The same stubs for a gateway: the sha256 stands in the drop stub too, as the handle to restore by.
function renderGatewayLabelStub(block: LabelledBlock, elidedDir: string): string {
  const call = describeCall(block);
  const raw = rawSuffix(elidedDir, block.rawSha256);
  if (block.label === 'drop') {
    return `${DROP_STUB_PREFIX}${call} (${DROP_REASONS[block.rule ?? 'default']}), ${block.bytes} bytes, sha256 ${block.sha256}; ${GATEWAY_DROP_KEPT}${raw}]`;
  }
  return `${STUB_PREFIX}${call}; ${block.bytes} bytes, sha256 ${block.sha256}; to see it again, ${GATEWAY_ROUTES[block.refetch ?? 'elided-file']}${raw}]`;
}

// The tool as recorded (or `unknown`, so a stub never carries a name it could not parse back),
// then the main input as a JSON string: quotes, backslashes and newlines all stay unambiguous.
function describeCall(block: LabelledBlock): string {
  const tool = block.tool !== undefined && TOOL_NAME.test(block.tool) ? block.tool : UNKNOWN_TOOL;
  return block.input === undefined || block.input === '' ? tool : `${tool} ${JSON.stringify(block.input)}`;
}

const CALL_PATTERN = '(?<tool>[A-Za-z0-9_-]{1,128})(?: (?<input>"(?:[^"\\\\]|\\\\.)*"))?';

const POINTER_PATTERNS = (Object.entries(ROUTES) as Array<[Refetch, readonly [string, string]]>).map(([refetch, [before, after]]) => ({
  refetch,
  regex: new RegExp(
    `^${escapeRegExp(STUB_PREFIX)}${CALL_PATTERN}; (?<bytes>\\d+) bytes, sha256 (?<sha>[0-9a-f]{64}); to see it again, ` +
      `${escapeRegExp(before)}.*/\\k<sha>\\.txt${escapeRegExp(after)}${RAW_SUFFIX_PATTERN}\\]$`,
    's',
  ),
}));

const GATEWAY_POINTER_PATTERNS = (Object.entries(GATEWAY_ROUTES) as Array<[Refetch, string]>).map(([refetch, route]) => ({
  refetch,
  regex: new RegExp(
    `^${escapeRegExp(STUB_PREFIX)}${CALL_PATTERN}; (?<bytes>\\d+) bytes, sha256 (?<sha>[0-9a-f]{64}); to see it again, ${escapeRegExp(route)}${RAW_SUFFIX_PATTERN}\\]$`,
    's',
  ),
}));

const GATEWAY_DROP_PATTERN = new RegExp(
  `^${escapeRegExp(DROP_STUB_PREFIX)}${CALL_PATTERN} \\((?<why>[^()]*)\\), (?<bytes>\\d+) bytes, sha256 (?<sha>[0-9a-f]{64}); ${escapeRegExp(GATEWAY_DROP_KEPT)}${RAW_SUFFIX_PATTERN}\\]$`,
  's',
);

const DROP_PATTERN = new RegExp(
  `^${escapeRegExp(DROP_STUB_PREFIX)}${CALL_PATTERN} \\((?<why>[^()]*)\\), (?<bytes>\\d+) bytes; text kept in .*/(?<sha>[0-9a-f]{64})\\.txt${RAW_SUFFIX_PATTERN}\\]$`,
  's',
);

const RULE_BY_REASON = new Map(Object.entries(DROP_REASONS).map(([rule, reason]) => [reason, rule as LabelRule]));

/** Reads a version 3 stub back; `undefined` when the text is not one. */
export function parseLabelStub(text: string): ParsedLabelStub | undefined {
  const drop = (DROP_PATTERN.exec(text) ?? GATEWAY_DROP_PATTERN.exec(text))?.groups;
  if (drop !== undefined) {
    const rule = RULE_BY_REASON.get(drop['why'] ?? '');
    const parsed = common(drop, 'drop');
    return rule === undefined || parsed === undefined ? undefined : { ...parsed, rule };
  }
  for (const { refetch, regex } of [...POINTER_PATTERNS, ...GATEWAY_POINTER_PATTERNS]) {
    const pointer = regex.exec(text)?.groups;
    if (pointer === undefined) continue;
    const parsed = common(pointer, 'pointer');
    return parsed === undefined ? undefined : { ...parsed, refetch };
  }
  return undefined;
}

function common(groups: Record<string, string | undefined>, label: StubLabel): ParsedLabelStub | undefined {
  const input = groups['input'] === undefined ? '' : parseJsonString(groups['input']);
  if (input === undefined) return undefined;
  const base = { bytes: Number(groups['bytes']), sha256: groups['sha'] ?? '', label, tool: groups['tool'] ?? UNKNOWN_TOOL, input };
  const raw = groups['raw'] ?? groups['graw'];
  return raw === undefined ? base : { ...base, rawSha256: raw };
}

// A stub's own quoting: what JSON.stringify wrote. Anything else is not a stub of ours.
function parseJsonString(token: string): string | undefined {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
