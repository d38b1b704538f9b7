/**
 * The working set end to end (issue 25), in both modes, through the real proxy against the scripted
 * API with its window on: the model reads sixteen files one a turn, then brings back everything
 * that was taken out (the `restore` tool, two a turn, page by page), the whole well over the recent
 * budget and under the window, then goes on for a few small reads. Every fact is in front of the model at the end, no fact is stored by two
 * epochs (nothing taken out twice), no request went over the window, and the epochs are few.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESTORE_TOOL_NAME } from '../../src/core/detect-refaults.js';
import { ScriptedClient, type Block } from '../../src/scripted/client.js';
import { toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FILES = 16;
const FILE_BYTES = 18_000;
/** Scripted tokens are 4 bytes: 16 files of 4,500 tokens, 72,000 in all: over the 70% threshold, under the 100,000 window. */
const WINDOW = 100_000;
const fact = (i: number): string => `FACT-${String(i).padStart(2, '0')}-${(i * 7919).toString(36)}`;
const STORED = /(elided|spans)\/([0-9a-f]{64})\.(?:txt|md)/g;

/** A file of the project: its fact, then filler. */
function fileText(i: number): string {
  const line = `${fact(i)} lives in src/file-${i}.ts. `;
  return (line + 'const x = 1; // filler line of the project\n'.repeat(FILE_BYTES / 40)).slice(0, FILE_BYTES);
}

/** A restore page's size, in characters, as `ctxshed mcp`'s restore pages a long text (mcp/restore-page.ts). */
const PAGE_CHARS = 30_000;
const NEXT_PAGE = /call restore again with handle ([0-9a-f]{64}) and offset (\d+)/g;
/** Small reads after the check: the conversation goes on over the threshold, and later epochs are decided. */
const AFTER = 8;

/** The texts of the last message's tool_results. */
function lastResults(body: Buffer): string {
  const messages = (JSON.parse(body.toString('utf8')) as { messages: Array<{ content: unknown }> }).messages;
  const content = messages.at(-1)?.content;
  return Array.isArray(content) ? content.map((b: { content?: unknown }) => (typeof b.content === 'string' ? b.content : '')).join('\n') : '';
}

/**
 * The model: one Read a turn; then restores of every stored text its request names, two a turn,
 * page by page; then a few small reads; then done.
 */
function scriptedModel() {
  const restored = new Set<string>();
  let read = 0;
  let after = 0;
  return (body: Buffer): ReplyBlock[] => {
    if (read < FILES) return [toolUse('Read', { file_path: `/src/file-${read++}.ts` })];
    const pages = [...lastResults(body).matchAll(NEXT_PAGE)].map((m) => toolUse(RESTORE_TOOL_NAME, { handle: m[1]!, offset: Number(m[2]) }));
    const named = [...new Set([...body.toString('utf8').matchAll(STORED)].map((m) => m[2]!))].filter((sha) => !restored.has(sha));
    const restores = [...pages, ...named.map((handle) => toolUse(RESTORE_TOOL_NAME, { handle }))].slice(0, 2);
    for (const use of restores) restored.add(String(use.input['handle']));
    if (restores.length > 0) return restores;
    if (after < AFTER) return [toolUse('Read', { file_path: `/src/small-${after++}.ts` })];
    return [{ type: 'text', text: 'All checked.' }];
  };
}

/** What the client's tools answer: the project's files, and the restore tool from the state directory, in pages. */
function runToolIn(dir: string) {
  return (use: Block): string => {
    const input = use['input'] as Record<string, unknown>;
    if (use['name'] === 'Read') {
      const file = String(input['file_path']);
      return file.includes('small') ? `small file ${file}` : fileText(Number(/file-(\d+)/.exec(file)?.[1]));
    }
    const sha = String(input['handle']);
    const offset = Number(input['offset'] ?? 0);
    const text = storedText(dir, sha);
    if (text === undefined) return `ctxshed: no stored text ${sha}`;
    const end = Math.min(text.length, offset + PAGE_CHARS);
    const rest = end < text.length ? `\n[ctxshed: for the rest, call restore again with handle ${sha} and offset ${end}]` : '';
    return `${text.slice(offset, end)}${rest}`;
  };
}

function storedText(dir: string, sha: string): string | undefined {
  for (const file of [path.join(dir, 'elided', `${sha}.txt`), path.join(dir, 'spans', `${sha}.md`)]) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // Not this kind.
    }
  }
  return undefined;
}

function listFiles(folder: string): string[] {
  try {
    return readdirSync(folder).map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}

async function runSession(mode: 'rescue' | 'shed') {
  const dir = await tempStateDir();
  const model = scriptedModel();
  const api = await startMessagesApi({
    maxPromptTokens: WINDOW,
    respond: (req) => (isMessagesRequest(req) ? { kind: 'message', content: model(req.body), outputTokens: 20 } : undefined),
  });
  const proxy = await startTestProxy(dir, testConfig(api.url, { window: WINDOW, mode }));
  const client = new ScriptedClient(proxy.url, { runTool: runToolIn(dir), prompt: 'Read the sixteen files, then check your work.' });
  cleanups.push(
    () => api.close(),
    () => proxy.close(),
    () => client.close(),
  );
  let turns = 0;
  for (let done = false; !done && turns < 80; turns++) {
    const turn = await client.turnOnce();
    expect(turn.status).toBe(200);
    done = turn.reply?.content.every((b) => b['type'] === 'text') ?? true;
  }
  const wire = await waitForWire(dir, turns);
  const last = api.requests.filter(isMessagesRequest).at(-1)!.body.toString('utf8');
  const stored = ['elided', 'spans'].flatMap((sub) =>
    listFiles(path.join(dir, sub))
      .filter((f) => f.endsWith('.txt') || f.endsWith('.json'))
      .map((f) => readFileSync(f, 'utf8')),
  );
  return { api, wire, last, stored, turns };
}

describe('the working set through the proxy (issue 25)', () => {
  for (const mode of ['rescue', 'shed'] as const) {
    it(`should keep what a burst of restores brought back, in ${mode} mode: every fact back, nothing taken out twice, nothing over the window`, async () => {
      const { api, wire, last, stored, turns } = await runSession(mode);

      expect(turns).toBeLessThan(80);
      for (let i = 0; i < FILES; i++) expect(last, fact(i)).toContain(fact(i));
      for (let i = 0; i < FILES; i++) expect(stored.filter((text) => text.includes(fact(i))).length, fact(i)).toBeLessThanOrEqual(1);
      expect(api.refusedForSize()).toBe(0);
      // Over the threshold after the check, the next epoch would have taken the restores out: held as a thrash.
      expect(wire.some((r) => r['hold'] === 'working_set_thrash')).toBe(true);
      const epochs = wire.filter((r) => r['latched'] !== undefined).length;
      expect(epochs).toBeGreaterThan(0);
      expect(epochs).toBeLessThanOrEqual(3);
    });
  }
});
