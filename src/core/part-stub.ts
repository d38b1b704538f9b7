/**
 * The stubs of the deeper cut's parts (docs/rescue.md "The deeper cut"): what a tool input's string
 * or an assistant text becomes. Like a tool result's stub it is a pure function of the frozen block
 * and the elided folder, names what was there (the call, its main input and which of its fields;
 * or that it was the model's text), the size and sha256, and how to get it back, and never quotes
 * the text itself.
 */
import type { BlockPart, FrozenBlock, PathStep } from './epoch-types.js';
import { UNKNOWN_TOOL } from './labels/label-types.js';
import { elidedTextPath, escapeRegExp, isGatewayDir, rawSuffix, RAW_SUFFIX_PATTERN } from './stub-paths.js';

/** How each part's stub begins. */
export const PART_STUB_PREFIXES: Readonly<Record<BlockPart, string>> = {
  tool_input: '[ctxshed: tool input moved out of the context; ',
  assistant_text: '[ctxshed: assistant text moved out of the context; ',
};

const RESTORE_SUFFIX = " (or call ctxshed's restore tool with its sha256)";
const GATEWAY_ROUTE = "call ctxshed's restore tool with sha256 ";
const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;
const PLAIN_FIELD = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The stub text of a frozen part (the text, not yet JSON-encoded). Shorter than a tool result's:
 * parts are many and smaller, and a stub's own bytes are what a part still costs. The elided
 * file's name is the sha256, so the stub names it once.
 */
export function renderPartStub(block: FrozenBlock & { readonly part: BlockPart }, elidedDir: string): string {
  const what = block.part === 'tool_input' ? `${describeInput(block)}, ` : '';
  const raw = rawSuffix(elidedDir, block.rawSha256);
  const route = isGatewayDir(elidedDir)
    ? `${GATEWAY_ROUTE}${block.sha256}`
    : `read ${elidedTextPath(elidedDir, block.sha256)}${block.refetch === 'restore' ? RESTORE_SUFFIX : ''}`;
  return `${PART_STUB_PREFIXES[block.part]}${what}${block.bytes} bytes; ${route}${raw}]`;
}

// `the content of Write "/src/pay.ts"`: the field (quoted when it is not a plain name) and the
// call, its main input as a JSON string, so quotes and newlines in it cannot be taken for the
// stub's own punctuation.
function describeInput(block: FrozenBlock): string {
  const tool = block.tool !== undefined && TOOL_NAME.test(block.tool) ? block.tool : UNKNOWN_TOOL;
  const call = block.input === undefined || block.input === '' ? tool : `${tool} ${JSON.stringify(block.input)}`;
  const field = fieldOf(block.path ?? []);
  return `the ${PLAIN_FIELD.test(field) ? field : JSON.stringify(field)} of ${call}`;
}

/**
 * The field a tool input's path names, as the model wrote it: the steps inside a Messages call's
 * `input` (`content`, `edits.0.new_string`), else the path's last key (`arguments`, `input`).
 */
export function fieldOf(path: readonly PathStep[]): string {
  if (path[0] === 'input' && path.length > 1) return path.slice(1).join('.');
  const last = [...path].reverse().find((step) => typeof step === 'string');
  return last === undefined ? 'input' : String(last);
}

/** What a part stub says: its part, bytes and hashes (what inflate needs). */
export interface ParsedPartStub {
  readonly part: BlockPart;
  readonly bytes: number;
  readonly sha256: string;
  readonly rawSha256?: string;
}

const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const WHAT = `(?:the (?:[A-Za-z0-9_.-]{1,128}|${QUOTED}) of [A-Za-z0-9_-]{1,128}(?: ${QUOTED})?, )?`;
const ROUTES = `(?:read .*/(?<sha>[0-9a-f]{64})\\.txt(?:${escapeRegExp(RESTORE_SUFFIX)})?|${escapeRegExp(GATEWAY_ROUTE)}(?<gsha>[0-9a-f]{64}))`;
const PATTERNS = (Object.entries(PART_STUB_PREFIXES) as Array<[BlockPart, string]>).map(([part, prefix]) => ({
  part,
  prefix,
  regex: new RegExp(`^${escapeRegExp(prefix)}${WHAT}(?<bytes>\\d+) bytes; ${ROUTES}${RAW_SUFFIX_PATTERN}\\]$`, 's'),
}));

/** Reads a part stub's text back; `undefined` when the text is not one. */
export function parsePartStub(text: string): ParsedPartStub | undefined {
  for (const { part, prefix, regex } of PATTERNS) {
    if (!text.startsWith(prefix)) continue;
    const groups = regex.exec(text)?.groups;
    if (groups === undefined) return undefined;
    const raw = groups['raw'] ?? groups['graw'];
    const base = { part, bytes: Number(groups['bytes']), sha256: groups['sha'] ?? groups['gsha'] ?? '' };
    return raw === undefined ? base : { ...base, rawSha256: raw };
  }
  return undefined;
}

/** Whether a text begins as a part stub does (a text the deeper cut must not take again). */
export function startsLikePartStub(text: Uint8Array): boolean {
  return PREFIX_BYTES.some((prefix) => text.length >= prefix.length && prefix.every((c, i) => text[i] === c));
}

const PREFIX_BYTES = Object.values(PART_STUB_PREFIXES).map((p) => new TextEncoder().encode(p));
