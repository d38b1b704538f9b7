/**
 * The scripted models of grant-scenario.ts: what the upstream answers the real client in each run.
 * Each is a small state machine over the requests of the main thread; their tool_use ids say what
 * each call was for, so the test can find the client's answer to it in a later request.
 */
import { parseStub } from '../../src/core/stub.js';
import { stubFilePath } from '../../src/demo/stub-in-request.js';
import { textBlock, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { parseRequestBody, type ReceivedRequest } from '../../src/scripted/received-request.js';
import type { ScriptedReply } from '../../src/scripted/reply.js';
import { classify } from './rescue-scenario.js';

/** One scripted model: answers a request, or declines (count_tokens and the like). */
export type Responder = (req: ReceivedRequest) => ScriptedReply | undefined;

/** A stub seen in a request: the elided file it names. */
export interface SeenStub {
  readonly sha256: string;
  readonly path: string;
}

const text = textBlock;

/** Answers main-thread requests with `next`, side calls with a title; the API prices the usage from the bytes sent. */
export function mainThread(next: (req: ReceivedRequest) => ReplyBlock[]): Responder {
  return (req) => {
    const kind = classify(req);
    if (kind === 'count_tokens' || kind === 'other') return undefined;
    if (kind === 'side') return { kind: 'message', content: [text('{"title": "Scratch files"}')], outputTokens: 9 };
    return { kind: 'message', content: next(req) };
  };
}

/** Every ctxshed stub among the request's tool results, in order. */
export function stubsIn(req: ReceivedRequest): SeenStub[] {
  const body = parseRequestBody(req) as { messages?: Array<{ content?: unknown }> } | undefined;
  const found: SeenStub[] = [];
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      const content = b['content'];
      if (b['type'] !== 'tool_result' || typeof content !== 'string') continue;
      const stub = parseStub(content);
      const path = stubFilePath(content);
      if (stub !== undefined && path !== undefined) found.push({ sha256: stub.sha256, path });
    }
  }
  return found;
}

/** What the read-back model asked for, by tool_use id, for the test to check. */
export interface ReadbackPlan {
  /** Each stub read back with Read: id -> the stub. */
  readonly reads: Record<string, SeenStub>;
  /** Each stub restored over MCP: id -> the stub. */
  readonly restores: Record<string, SeenStub>;
  spansId?: string;
  toolSearchId?: string;
  /** The block sealed mid-session, and the ids of the Read and the restore tried after it. */
  sealed?: { stub: SeenStub; readId: string; restoreId: string };
  /** Files of the project read first, by id. */
  readonly fileReads: Record<string, string>;
}

/**
 * Reads the project's files one by one; whenever a request shows a stub not read back yet, Reads
 * the file it names (all new ones at once), until the files are read. Then loads the MCP tools
 * with ToolSearch, restores every stub read back and calls spans; then `seal(sha)` seals the first
 * stub and it tries a Read of its path and a restore of it; then ends.
 */
export function readbackModel(files: readonly string[], seal: (sha256: string) => void): { respond: Responder; plan: ReadbackPlan } {
  const plan: ReadbackPlan = { reads: {}, restores: {}, fileReads: {} };
  const readBack = new Set<string>();
  const seen: SeenStub[] = [];
  let nextFile = 0;
  let phase: 'files' | 'search' | 'restore' | 'seal' | 'end' = 'files';
  let n = 0;
  const id = (what: string): string => `toolu_01${what}${String((n += 1)).padStart(4, '0')}`;
  const respond = mainThread((req) => {
    for (const stub of stubsIn(req)) if (!seen.some((s) => s.sha256 === stub.sha256)) seen.push(stub);
    const fresh = seen.filter((s) => !readBack.has(s.sha256));
    // Only while reading the files: a later epoch may freeze the answers of the restore phase
    // themselves (Claude Code 2.1.328 runs reach six epochs), which are no file's text and are
    // never restored.
    if (fresh.length > 0 && phase === 'files') {
      return fresh.map((stub) => {
        readBack.add(stub.sha256);
        const useId = id('ReadBack');
        plan.reads[useId] = stub;
        return toolUse('Read', { file_path: stub.path }, useId);
      });
    }
    if (phase === 'files' && nextFile < files.length) {
      const useId = id('ReadFile');
      plan.fileReads[useId] = files[nextFile]!;
      return [toolUse('Read', { file_path: files[nextFile++]! }, useId)];
    }
    if (phase === 'files') {
      phase = 'search';
      plan.toolSearchId = id('ToolSearch');
      return [toolUse('ToolSearch', { query: 'select:mcp__ctxshed__restore,mcp__ctxshed__spans', max_results: 5 }, plan.toolSearchId)];
    }
    if (phase === 'search') {
      phase = 'restore';
      plan.spansId = id('Spans');
      const restores = seen
        .filter((stub) => readBack.has(stub.sha256))
        .map((stub) => {
          const useId = id('Restore');
          plan.restores[useId] = stub;
          return toolUse('mcp__ctxshed__restore', { handle: stub.sha256 }, useId);
        });
      return [...restores, toolUse('mcp__ctxshed__spans', {}, plan.spansId)];
    }
    if (phase === 'restore' && seen[0] !== undefined) {
      phase = 'seal';
      const stub = seen[0];
      seal(stub.sha256);
      plan.sealed = { stub, readId: id('SealedRead'), restoreId: id('SealedRestore') };
      return [
        toolUse('Read', { file_path: stub.path }, plan.sealed.readId),
        toolUse('mcp__ctxshed__restore', { handle: stub.sha256.slice(0, 16) }, plan.sealed.restoreId),
      ];
    }
    phase = 'end';
    return [text('Done.')];
  });
  return { respond, plan };
}

/** Answers with `steps` in order (each a list of content blocks), then a final text. */
export function steppedModel(steps: ReadonlyArray<readonly ReplyBlock[]>): Responder {
  let step = 0;
  return mainThread(() => [...(steps[step++] ?? [text('Done.')])]);
}
