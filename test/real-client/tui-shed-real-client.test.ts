/**
 * The interactive Claude Code client on a pseudo-terminal (tmux), default permission mode, offline,
 * through `ctxshed rescue --mode shed`: an epoch latches, the upstream gets a span stub after the
 * client's own head, and the model restores the span by the stub's handle with no permission
 * prompt on the screen; with --no-grant, a Read of the `.md` path the stub names stops at Claude
 * Code's prompt (the control). See tui-scenario.ts (`--mode shed`).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSpanStubs } from '../../src/core/epochs/spans/find-span-stubs.js';
import { parseSpanStub } from '../../src/core/shed/span-stub.js';
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import type { ConversationRecord } from '../../src/core/epoch-types.js';
import { layoutPaths } from '../../src/state/layout.js';
import { listConversations } from '../../src/state/read-conversation.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { canUnshareNet, whyClientCannotRun } from './client-env.js';
import { indexOf, toolResultsOf, whyNotFirstSpanPage } from './request-bytes.js';
import { loadedThrough, RESTORE_ID } from './shed-scenario.js';
import { NO_SPAN_TEXT, PROMPT_TEXT, READY_TEXT, SHED_DONE_TEXT, showsPermissionPrompt, tmuxVersion, type TuiShedObservations } from './tui-scenario.js';
import { readObservations, runScenario } from './run-scenario.js';
import { spanOf } from '../../src/core/epoch-items.js';

const SCENARIO = new URL('./tui-scenario.ts', import.meta.url).pathname;
const SCENARIO_TIMEOUT_MS = 200_000;

const whyNot = whyClientCannotRun() ?? (tmuxVersion() === undefined ? 'tmux is not installed' : !canUnshareNet() ? 'unshare -n cannot run here' : undefined);
if (whyNot !== undefined) console.warn(`real-client TUI shed suite SKIPPED: ${whyNot}`);

interface Main {
  seq: number;
  client: Buffer;
  upstream: Buffer;
}

describe.skipIf(whyNot !== undefined)('the interactive Claude Code client through ctxshed rescue --mode shed', () => {
  let root = '';
  let obs: TuiShedObservations;
  let mains: Main[] = [];
  let record: ConversationRecord;
  /** The last message of the ToolSearch load of restore, which shed keeps. */
  let loaded = 0;

  beforeAll(async () => {
    const run = await runScenario(SCENARIO, 'ctxshed-tui-shed-client-', ['--mode', 'shed']);
    root = run.root;
    obs = readObservations<TuiShedObservations>(run);
    const { bodiesDir, exchanges } = obs.shed;
    mains = exchanges
      .filter((e) => e.kind === 'main')
      .map((e) => ({
        seq: e.seq,
        client: readFileSync(join(bodiesDir, e.clientFile)),
        upstream: e.upstreamFile === undefined ? Buffer.alloc(0) : readFileSync(join(bodiesDir, e.upstreamFile)),
      }));
    const records = await listConversations(layoutPaths(obs.shed.stateDir));
    expect(records).toHaveLength(1);
    record = records[0]!;
    loaded = loadedThrough(mains.at(-1)!.client);
    const span = spanOf(record.epochs[0]!);
    console.info(
      `real-client TUI shed suite: ${obs.tmux}, network ${obs.isolated ? 'isolated by unshare -n' : 'not isolated'}; ${mains.length} requests of the main thread; ` +
        `Enter pressed ${obs.shed.enters} time(s); ${record.epochs.length} epoch(s), the first shedding messages ${span?.first}..${span?.last} (${span?.bytes} bytes); ` +
        `requests over the window ${obs.shed.overWindow}`,
    );
  }, SCENARIO_TIMEOUT_MS);

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('should run offline in the default permission mode with the grant rescue gave, and end with Ctrl-C', () => {
    const { shed } = obs;
    expect(obs.isolated).toBe(true);
    expect(shed.ready).toMatch(READY_TEXT);
    // (The pane wraps long lines at 160 columns.) 2.1.197 draws below the notice; 2.1.328 draws on
    // the terminal's alternate screen, so the notice shows again once it has exited.
    // ctxshed wraps its banner at words to 80 columns, indenting what follows: read it as one line.
    const notice = (screen: string): string => screen.replace(/\n/g, '').replace(/ {2,}/g, ' ');
    expect([notice(shed.ready), notice(shed.closing)].join('\n')).toContain(
      `may read ${shed.stateDir}/elided/ and spans/ and call the restore and spans tools without asking`,
    );
    expect(shed.final).toContain(SHED_DONE_TEXT);
    expect(shed.final).not.toContain(NO_SPAN_TEXT);
    // Requests sent over the window (the scripted API refuses them as the real one does): 0.
    expect(shed.overWindow).toBe(0);
    expect(shed.exited).toBe(true);
  });

  it('should latch a shed epoch with a span right after the ToolSearch load of restore', () => {
    const [epoch] = record.epochs;
    expect(epoch?.kind).toBe('span');
    expect(spanOf(epoch!)).toBeDefined();
    expect(spanOf(epoch!)!.first).toBe(loaded + 1);
    expect(epoch!.gate).toMatchObject({ latch: true });
  });

  it("should send the upstream a span stub for it, with the client's head byte for byte in every request", () => {
    const span = spanOf(record.epochs[0]!)!;
    for (const s of mains) {
      expect(s.upstream.length, `request ${s.seq}`).toBeGreaterThan(0);
      const head = indexOf(s.client).messages[0]!.end;
      expect(s.upstream.subarray(0, head).equals(s.client.subarray(0, head)), `request ${s.seq}`).toBe(true);
    }
    const shed = mains.filter((s) => findSpanStubs(s.upstream, indexOf(s.upstream)).length > 0);
    expect(shed.length).toBeGreaterThan(0);
    for (const s of shed) {
      const [found, ...more] = findSpanStubs(s.upstream, indexOf(s.upstream));
      expect(more).toEqual([]);
      expect(found!.messageIndex).toBe(loaded + 1);
      const text = (JSON.parse(s.upstream.toString('utf8')) as { messages: Array<{ content: unknown }> }).messages[found!.messageIndex]!.content as string;
      expect(parseSpanStub(text)?.sha256).toBe(span.sha256);
      // The client itself never sees a stub: it sent the span's messages in full.
      expect(findSpanStubs(s.client, indexOf(s.client))).toEqual([]);
    }
  });

  it("should restore the span by the stub's handle with no permission prompt, the client sending back the verified rendering", () => {
    const span = spanOf(record.epochs[0]!)!;
    expect(obs.shed.handle).toBe(span.sha256);
    expect(obs.shed.sawPrompt).toBe(false);
    expect(showsPermissionPrompt(obs.shed.final)).toBe(false);
    expect(obs.shed.final).not.toMatch(PROMPT_TEXT);
    const json = readFileSync(join(obs.shed.stateDir, 'spans', `${span.sha256}.json`));
    expect(sha256Hex(json)).toBe(span.sha256);
    // The span's bytes are the client's own messages first..last, as it sent them.
    const client = mains.find((s) => findSpanStubs(s.upstream, indexOf(s.upstream)).length > 0)!.client;
    const index = indexOf(client);
    expect(json.equals(client.subarray(index.messages[span.first]!.start, index.messages[span.last]!.end))).toBe(true);
    const restored = mains.map((s) => toolResultsOf(s.client).get(RESTORE_ID)).find((r) => r !== undefined);
    expect(restored).toBeDefined();
    expect(restored!.isError, restored!.text.slice(0, 300)).toBe(false);
    // Its verified rendering, whole or its first page (a span over 40,000 characters answers in pages).
    expect(whyNotFirstSpanPage(restored!.text, span, renderSpanMarkdown(json, span.sha256))).toBeUndefined();
  });

  it("should stop at Claude Code's prompt with --no-grant when the model reads the stub's .md path instead (the control)", () => {
    // Without the grant rescue registers no MCP server, so the control reads the span's .md.
    const { control } = obs;
    expect(control.handle).toBeDefined();
    expect(control.sawPrompt).toBe(true);
    expect(control.final).toMatch(PROMPT_TEXT);
    expect(control.final.replace(/\n/g, '')).toContain(`${control.handle}.md`);
    expect(control.final).not.toContain(SHED_DONE_TEXT);
    expect(control.exited).toBe(true);
  });

  it("should show nothing of ctxshed's on any screen after its banner, in either session", () => {
    expect([obs.shed.stray, obs.control.stray]).toEqual([[], []]);
  });
});
