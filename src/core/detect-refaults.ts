/**
 * Refaults: a tool call that reads an elided block back (docs/design.md "Refault"). Eliding something
 * still needed is the context's use-after-free; each read-back is the policy's miss, counted per
 * block and per epoch. Pure: the calls and the epochs in, the refaults out.
 *
 * A call reads a block back when it is
 * - a `Read` whose `file_path` is the block's elided file (`.../<sha256>.txt`), or another stored
 *   text a kind gives back (core/stored-files.ts);
 * - a `Bash` command that names the block's sha256 (its path names it too);
 * - the `restore` tool of `ctxshed mcp` (`mcp__ctxshed__restore`) given the sha256 or a prefix of
 *   at least 12 hex digits that names one block of the conversation;
 * - for an OpenAI client (Codex), whose tools are a shell and code that drives it, any call whose
 *   input names the block's sha256 (`cat <state>/elided/<sha256>.txt`): `shell`.
 *
 * A shed span is read back the same ways, by its handle: `restore` with it, a `Read` of
 * `spans/<sha256>.md` or `.json`, a command naming it. Such a refault has `span: true` and the
 * span's first message as its ordinal; a span restored twice means the policy cut too close.
 */
import { blocksOf } from './epoch-items.js';
import { spanOf } from './epoch-items.js';
import type { Epoch } from './epoch-types.js';
import { stringField, type ToolCall } from './read-tool-calls.js';
import { storedShaOfPath } from './stored-files.js';

/** How a block was read back. */
export type RefaultVia = 'read' | 'bash' | 'restore' | 'shell';

/** One block read back by one tool call. */
export interface Refault {
  readonly toolUseId: string;
  /** The epoch that froze the block. */
  readonly epoch: number;
  readonly ordinal: number;
  readonly sha256: string;
  readonly via: RefaultVia;
  /** Present when the call read a shed span back (its ordinal is then the span's first message). */
  readonly span?: true;
}

/** Claude Code's name for the `restore` tool of the `ctxshed` MCP server. */
export const RESTORE_TOOL_NAME = 'mcp__ctxshed__restore';
/** The shortest sha256 prefix `restore` takes. */
export const MIN_RESTORE_PREFIX_HEX = 12;

const SHA256_IN_TEXT = /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const HEX_PREFIX = new RegExp(`^[0-9a-fA-F]{${MIN_RESTORE_PREFIX_HEX},64}$`);

interface Frozen {
  readonly epoch: number;
  readonly ordinal: number;
  readonly sha256: string;
  readonly span?: true;
}

/** The blocks `calls` (Claude Code's tools) read back, each block at most once per call, in call order. */
export function detectRefaults(calls: readonly ToolCall[], epochs: readonly Epoch[]): Refault[] {
  return detect(calls, epochs, (call) => viaOf(call.name));
}

/** The same for an OpenAI client's calls: any call whose input names a block's sha256 (`shell`). */
export function detectShellRefaults(calls: readonly ToolCall[], epochs: readonly Epoch[]): Refault[] {
  return detect(calls, epochs, () => 'shell');
}

function detect(calls: readonly ToolCall[], epochs: readonly Epoch[], viaOfCall: (call: ToolCall) => RefaultVia | undefined): Refault[] {
  if (calls.length === 0 || epochs.length === 0) return [];
  const bySha = new Map<string, Frozen>();
  for (const epoch of epochs) {
    for (const b of blocksOf(epoch)) if (!bySha.has(b.sha256)) bySha.set(b.sha256, { epoch: epoch.n, ordinal: b.ordinal, sha256: b.sha256 });
    const span = spanOf(epoch);
    if (span !== undefined && !bySha.has(span.sha256)) bySha.set(span.sha256, { epoch: epoch.n, ordinal: span.first, sha256: span.sha256, span: true });
  }
  const known: ReadonlySet<string> = new Set(bySha.keys());
  const refaults: Refault[] = [];
  for (const call of calls) {
    const found = new Map<string, Frozen>();
    const via = viaOfCall(call);
    if (via === undefined) continue;
    for (const sha of namedShas(call, via, known)) {
      const block = bySha.get(sha);
      if (block !== undefined) found.set(sha, block);
    }
    for (const block of found.values()) refaults.push({ toolUseId: call.id, ...block, via });
  }
  return refaults;
}

/**
 * The stored texts (by sha256, among `known`) one call reads back, by its tool's rule: what the
 * working set (core/epochs/working-set.ts) counts per block and span.
 */
export function shasReadBack(call: ToolCall, known: ReadonlySet<string>): string[] {
  const via = viaOf(call.name);
  return via === undefined ? [] : namedShas(call, via, known).filter((sha) => known.has(sha));
}

function viaOf(name: string): RefaultVia | undefined {
  if (name === 'Read') return 'read';
  if (name === 'Bash') return 'bash';
  if (name === RESTORE_TOOL_NAME) return 'restore';
  // A Codex shell call (core/shed/restore-call.ts's SHELL_TOOL_NAMES) names what it reads anywhere in its command.
  if (['shell', 'exec', 'exec_command', 'local_shell', 'container.exec'].includes(name)) return 'shell';
  return undefined;
}

// The lowercase sha256s the call names, by its tool's rule.
function namedShas(call: ToolCall, via: RefaultVia, known: ReadonlySet<string>): string[] {
  switch (via) {
    case 'read': {
      const path = stringField(call, 'file_path');
      const sha = typeof path === 'string' ? storedShaOfPath(path) : undefined;
      return sha === undefined ? [] : [sha.toLowerCase()];
    }
    case 'bash': {
      const command = stringField(call, 'command');
      return typeof command === 'string' ? [...command.matchAll(SHA256_IN_TEXT)].map((m) => m[0].toLowerCase()) : [];
    }
    case 'shell':
      return call.strings.flatMap(([, text]) => [...text.matchAll(SHA256_IN_TEXT)].map((m) => m[0].toLowerCase()));
    case 'restore':
      // Whatever the argument is called: a string of hex digits that names exactly one block.
      return call.strings.flatMap(([, value]) => {
        if (typeof value !== 'string' || !HEX_PREFIX.test(value)) return [];
        const prefix = value.toLowerCase();
        const matches = [...known].filter((sha) => sha.startsWith(prefix));
        return matches.length === 1 ? matches : [];
      });
  }
}
