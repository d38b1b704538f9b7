/**
 * The careful agent of issue 39, for the scripted client: it reads the project's files one a turn,
 * then, for every stub in front of it, calls `restore` page by page at the offsets each header
 * gives AND Reads the `.md` (or elided `.txt`) the stub names (in the pages the stub gives, and the
 * next page a truncated Read names), all at once; it writes no notes of its own, and ends when
 * nothing is left to bring back. Its tools are the real ones: `restore` is `ctxshed mcp`'s own
 * (in-process, over the same state directory), Read is Claude Code's as measured
 * (src/scripted/read-tool.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSpanStub } from '../../src/core/shed/span-stub.js';
import { parseStub } from '../../src/core/stub.js';
import { RESTORE_TOOL_NAME } from '../../src/core/detect-refaults.js';
import { callTool } from '../../src/mcp/mcp-server.js';
import { RoomLedger } from '../../src/mcp/room-ledger.js';
import type { Block } from '../../src/scripted/client.js';
import { textBlock, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { readAsClaudeCode, UNCHANGED_READ, type ReadStyle } from '../../src/scripted/read-tool.js';
import { layoutPaths } from '../../src/state/layout.js';

/** A project of `files` files, each with one fact in the middle of about `bytes` bytes of lines. */
export interface CarefulProject {
  readonly files: number;
  readonly bytes: number;
}

/** The fact planted in file `i`. */
export const carefulFact = (i: number): string => `FACT-${String(i).padStart(2, '0')}-${(i * 7919).toString(36)}`;

/** File `i`'s text: numbered lines, its fact halfway through. */
export function carefulFileText(i: number, bytes: number): string {
  const lines: string[] = [];
  for (let n = 1, size = 0; size < bytes; n += 1) {
    const line = `file ${i} line ${String(n).padStart(4, '0')}: const value${n} = compute(${(n * 7919) % 10007}); // project code`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.splice(lines.length >> 1, 0, `${carefulFact(i)} lives in src/file-${i}.ts.`);
  return `${lines.join('\n')}\n`;
}

/** What the model did, for the test's assertions. */
export interface CarefulLog {
  /** Each restore call: handle and offset. */
  readonly restores: Array<{ handle: string; offset: number }>;
  /** Each Read of a stored file: its path and range. */
  readonly reads: Array<{ path: string; offset?: number; limit?: number }>;
  /** The ids of every call that brought stored text back. */
  readonly bringBackIds: Set<string>;
  done: boolean;
}

interface Call {
  readonly kind: 'restore' | 'read' | 'file';
  readonly handle?: string;
  readonly path?: string;
}

const NEXT_PAGE = /call restore again with offset (\d+)/;
const NEXT_READ = /Call Read with offset=(\d+) limit=(\d+)/;
/** A stub's Read pages, when it gives them: `offset N limit M` pairs (core/shed/span-stub.ts). */
const STUB_PAGES = /offset (\d+) limit (\d+)/g;

/** The careful model and its tools over the state directory `dir`. */
export function carefulAgent(dir: string, project: CarefulProject, style: ReadStyle) {
  const state = layoutPaths(dir);
  // One client session, one MCP server: its restore counts what it gave since each request (mcp/room-ledger.ts).
  const ledger = new RoomLedger();
  const log: CarefulLog = { restores: [], reads: [], bringBackIds: new Set(), done: false };
  const calls = new Map<string, Call>();
  const asked = new Set<string>();
  const checked = new Set<string>();
  let nextFile = 0;
  let n = 0;
  const id = (what: string): string => `toolu_01Careful${what}${String((n += 1)).padStart(6, '0')}`;
  const ask = (key: string, make: () => ReplyBlock): ReplyBlock[] => {
    if (asked.has(key)) return [];
    asked.add(key);
    return [make()];
  };
  const restore = (handle: string, offset: number): ReplyBlock[] =>
    ask(`restore ${handle} ${offset}`, () => {
      const use = toolUse(RESTORE_TOOL_NAME, offset === 0 ? { handle } : { handle, offset }, id('Restore'));
      calls.set(use.id, { kind: 'restore', handle });
      log.bringBackIds.add(use.id);
      return use;
    });
  const read = (file: string, offset?: number, limit?: number): ReplyBlock[] =>
    ask(`read ${file} ${offset ?? ''} ${limit ?? ''}`, () => {
      const input = { file_path: file, ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) };
      const use = toolUse('Read', input, id('Read'));
      calls.set(use.id, { kind: 'read', path: file });
      log.bringBackIds.add(use.id);
      return use;
    });

  /** The model: one file a turn, then every bring-back it can see, all at once; then done. */
  const respond = (body: Buffer): ReplyBlock[] => {
    if (nextFile < project.files) {
      const use = toolUse('Read', { file_path: `/project/src/file-${nextFile++}.ts` }, id('File'));
      calls.set(use.id, { kind: 'file' });
      return [use];
    }
    const wanted: ReplyBlock[] = [];
    for (const stub of stubsIn(body, dir)) {
      if (checked.has(stub.handle)) continue;
      checked.add(stub.handle);
      wanted.push(...restore(stub.handle, 0));
      if (stub.pages.length === 0) wanted.push(...read(stub.path));
      for (const [offset, limit] of stub.pages) wanted.push(...read(stub.path, offset, limit));
    }
    for (const [useId, text] of lastResults(body)) {
      const call = calls.get(useId);
      const page = NEXT_PAGE.exec(text.split('\n', 1)[0] ?? '');
      if (call?.kind === 'restore' && page !== null) wanted.push(...restore(call.handle!, Number(page[1])));
      const more = NEXT_READ.exec(text);
      if (call?.kind === 'read' && more !== null) wanted.push(...read(call.path!, Number(more[1]), Number(more[2])));
    }
    if (wanted.length > 0) return wanted;
    log.done = true;
    return [textBlock('All checked.')];
  };

  /** The client's tools: the project's files and stored files by Claude Code's Read, restore by ctxshed's MCP tool. */
  const answered = new Set<string>();
  const runTool = async (use: Block): Promise<string> => {
    const input = use['input'] as Record<string, unknown>;
    if (use['name'] === RESTORE_TOOL_NAME) {
      const handle = String(input['handle']);
      const offset = Number(input['offset'] ?? 0);
      log.restores.push({ handle, offset });
      const result = await callTool(state, 'restore', { handle, ...(offset === 0 ? {} : { offset }) }, ledger);
      return result.content.map((c) => c.text).join('\n');
    }
    const file = String(input['file_path']);
    const range = {
      ...(input['offset'] === undefined ? {} : { offset: Number(input['offset']) }),
      ...(input['limit'] === undefined ? {} : { limit: Number(input['limit']) }),
    };
    if (file.startsWith('/project/')) return readAsClaudeCode(carefulFileText(Number(/file-(\d+)/.exec(file)?.[1]), project.bytes), range, style);
    log.reads.push({ path: file, ...range });
    const key = `${file} ${range.offset ?? ''} ${range.limit ?? ''}`;
    // 2.1.197 answers a second Read of the same unchanged range with a notice.
    if (style === 'older' && answered.has(key)) return UNCHANGED_READ;
    answered.add(key);
    try {
      return readAsClaudeCode(readFileSync(file, 'utf8'), range, style);
    } catch {
      return `File does not exist: ${file}`;
    }
  };
  return { respond, runTool, log };
}

/** Every stub the body shows, span and block alike: its handle, the file a Read gives it back from, and the pages the stub names. */
export function stubsIn(body: Buffer, dir: string): Array<{ handle: string; path: string; pages: Array<[number, number]> }> {
  const messages = (JSON.parse(body.toString('utf8')) as { messages: Array<{ content: unknown }> }).messages;
  const found: Array<{ handle: string; path: string; pages: Array<[number, number]> }> = [];
  for (const m of messages) {
    for (const text of textsOf(m.content)) {
      const span = parseSpanStub(text);
      if (span !== undefined) {
        const head = text.split('\n', 1)[0] ?? '';
        const pages = [...head.matchAll(STUB_PAGES)].map((p) => [Number(p[1]), Number(p[2])] as [number, number]);
        found.push({ handle: span.sha256, path: path.join(dir, 'spans', `${span.sha256}.md`), pages });
        continue;
      }
      const block = parseStub(text);
      if (block !== undefined) found.push({ handle: block.sha256, path: path.join(dir, 'elided', `${block.sha256}.txt`), pages: [] });
    }
  }
  return found;
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: Record<string, unknown>) => {
    if (b['type'] === 'text' && typeof b['text'] === 'string') return [b['text']];
    if (b['type'] === 'tool_result') return textsOf(b['content']);
    return [];
  });
}

/** The last message's tool_results: id -> text. */
function lastResults(body: Buffer): Array<[string, string]> {
  const messages = (JSON.parse(body.toString('utf8')) as { messages: Array<{ content: unknown }> }).messages;
  const content = messages.at(-1)?.content;
  if (!Array.isArray(content)) return [];
  return content
    .filter((b: Record<string, unknown>) => b['type'] === 'tool_result')
    .map((b: Record<string, unknown>) => [String(b['tool_use_id']), textsOf(b['content']).join('\n')]);
}
