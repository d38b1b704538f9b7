/**
 * A kind with a NEW tag, `assistant_text`, added by its folder (assistant-text/) and one
 * registration call (docs/adding-a-kind.md). Through the engine over a state directory: it
 * latches; its originals are in its own folder, private, before a record may name them; verify
 * passes; inflate gives the client's bytes back; restore gives an original back by its handle;
 * ls, show, stats and verify run on the state; and the places outside its folder that know it by
 * the registry alone: show of one original, ls's itemsFrozen and the restore listing. The property
 * suites over it are properties/registered-kind.test.ts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bannerLines, proxyConfigFrom } from '../../../src/cli/proxy-options.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { registerKind } from '../../../src/rescue/latch-kinds.js';
import { latchedOf, engineSettingsOf, EpochEngine, type EngineRequest, type EngineSettings, type Prepared } from '../../../src/rescue/index.js';
import { listRestorable } from '../../../src/restore/list-restorable.js';
import { restoreText } from '../../../src/restore/restore-text.js';
import { listOriginals } from '../../../src/restore/store-restore.js';
import { FsStore } from '../../../src/store/index.js';
import { decodeList } from '../../../src/restore/restore-wire.js';
import { renderSpans } from '../../../src/mcp/spans-tool.js';
import { inflateFromState } from '../../../src/state/inflate-from-state.js';
import { latchEpoch } from '../../../src/state/latch-epoch.js';
import { openStateDir } from '../../../src/state/open-state-dir.js';
import { verifyState } from '../../../src/state/verify-state.js';
import { readConversation } from '../../../src/state/read-conversation.js';
import { tempStateDir } from '../../support/test-proxy.js';
import { ASSISTANT_TEXT_KIND, ASSISTANT_TEXT_USE } from './assistant-text/kind-record.js';
import type { FrozenText } from './assistant-text/frozen-text.js';

/** The kind's own `--mode` word selects it; the word is known once the kind is registered (`beforeAll`). */
let SETTINGS: EngineSettings;
const FULL = { inputTokens: 900, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 };
const ENCODER = new TextEncoder();
const request = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body });
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A conversation of `turns` turns, as the client sends it at each turn: long assistant texts, one with thinking. */
function requestsOf(turns: number): Uint8Array[] {
  const messages: unknown[] = [];
  const bodies: Uint8Array[] = [];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: 'user', content: `question ${t}: what does part ${t} of the program do?` });
    bodies.push(ENCODER.encode(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages })));
    const text = { type: 'text', text: `Part ${t} reads the input, ${'and explains it at some length '.repeat(4 + t)}then stops.` };
    const content = t === 1 ? [{ type: 'thinking', thinking: 'hm', signature: 'c2ln' }, text] : [text];
    messages.push({ role: 'assistant', content });
  }
  return bodies;
}

let unregister: () => void;
beforeAll(() => {
  unregister = registerKind(ASSISTANT_TEXT_KIND);
  SETTINGS = engineSettingsOf({ mode: 'assistant-text', window: 1000, minGainFraction: 0 });
});
afterAll(() => unregister());

/** Every request through one engine, each read at 90% of the window. */
async function run(bodies: readonly Uint8Array[]): Promise<{ dir: string; sent: Prepared[] }> {
  const dir = await tempStateDir('ctxshed-assistant-text-');
  const engine = new EpochEngine(await openStateDir(dir), SETTINGS);
  const sent: Prepared[] = [];
  for (const body of bodies) {
    const prepared = await engine.prepare(request(body));
    engine.observe(prepared, { status: 200, usage: FULL });
    sent.push(prepared);
  }
  await engine.settle();
  return { dir, sent };
}

/** What `ctxshed <args>` prints, run in this process (where the kind is registered), and its exit code. */
async function ctxshed(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let errText = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errText += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    return { code: await runCli(args), out, err: errText };
  } finally {
    write.mockRestore();
    err.mockRestore();
  }
}

describe('a kind with a new tag, registered by one call', () => {
  it('should latch through the engine, its originals private in its own folder, and verify, inflate and restore', async () => {
    const bodies = requestsOf(6);
    const { dir, sent } = await run(bodies);
    const state = await openStateDir(dir);

    expect(ASSISTANT_TEXT_USE.choices).toBeGreaterThan(0);
    expect(sent.some((p) => latchedOf(p) !== undefined)).toBe(true);
    const key = sent.find((p) => p.key !== undefined)!.key!;
    const record = (await readConversation(state, key))!;
    const items = record.epochs.flatMap((e) => (e.items['assistant_text'] ?? []) as FrozenText[]);
    expect(items.length).toBeGreaterThan(0);
    expect(record.epochs[0]).toMatchObject({ kind: 'assistant_text' });
    expect(Object.keys(record.epochs[0]!.items)).toEqual(['assistant_text']);
    // The message with a thinking block is never touched.
    expect(items.some((i) => i.messageIndex === 3)).toBe(false);
    const folder = path.join(dir, 'assistant_text');
    expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
    for (const item of items) {
      const file = path.join(folder, `${item.sha256}.json`);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      const bytes = await fs.readFile(file);
      expect([sha256(bytes), bytes.length]).toEqual([item.sha256, item.bytes]);
    }
    const last = sent[sent.length - 1]!;
    expect(last.outcome).toBe('rewritten');
    expect(Buffer.from(last.body).toString()).toContain('ctxshed restore');

    expect((await verifyState(dir)).problems).toEqual([]);
    const inflated = await inflateFromState(state, last.body);
    expect(Buffer.from(inflated.body).equals(Buffer.from(bodies[bodies.length - 1]!))).toBe(true);
    expect(inflated.items).toBeGreaterThan(0);
    const restored = await restoreText(state, items[0]!.sha256.slice(0, 12));
    expect(restored).toMatchObject({ kind: 'restored', handle: items[0]!.sha256, source: 'frozen assistant text' });
    expect(sha256((restored as { bytes: Uint8Array }).bytes)).toBe(items[0]!.sha256);
  });

  it('should leave alone text that only looks like its stub: inflate puts back what the records say, and nothing else', async () => {
    const bodies = requestsOf(6);
    const { dir, sent } = await run(bodies);
    const state = await openStateDir(dir);
    const last = sent[sent.length - 1]!.body;
    // The client quotes a stub of its own at a place no epoch froze: an assistant text as the last message.
    const stub = JSON.parse(Buffer.from(last).toString()).messages[1].content[0];
    expect(stub.text).toContain('ctxshed restore');
    const quoted = JSON.parse(Buffer.from(bodies[5]!).toString());
    quoted.messages.push({ role: 'assistant', content: [stub] }, { role: 'user', content: 'go on' });
    const body = ENCODER.encode(JSON.stringify(quoted));
    expect((await inflateFromState(state, body)).body).toEqual(body);
  });

  it('should refuse a record whose items name an original that is not on disk', async () => {
    const state = await openStateDir(await tempStateDir('ctxshed-assistant-text-plan-'));
    const item = { messageIndex: 1, blockIndex: 0, sha256: 'ab'.repeat(32), bytes: 10 };
    const reason = { fullness: 0.9, threshold: 0.7, window: 1000, contextTokens: 900 };
    const epoch = {
      n: 1,
      latchedAt: '2026-01-01T00:00:00.000Z',
      trigger: 'threshold' as const,
      reason,
      policy: { name: 'x', version: 1, keepRecent: 0, minBytes: 0 },
      kind: 'assistant_text',
      items: { assistant_text: [item] },
    };
    const record = {
      format: 'ctxshed.conversation/2' as const,
      key: 'cd'.repeat(32),
      agentId: null,
      firstPrompt: '',
      model: 'm',
      createdAt: epoch.latchedAt,
      epochs: [epoch],
    };
    await expect(latchEpoch(state, record.key, () => ({ record, originals: [] }))).rejects.toMatchObject({ code: 'STATE_BAD_PLAN' });
    await expect(
      latchEpoch(state, record.key, () => ({ record: { ...record, epochs: [{ ...epoch, kind: 'nobody', items: { nobody: [item] } }] }, originals: [] })),
    ).rejects.toThrow(/kind "nobody" is not an epoch kind's tag/);
  });

  it('should let ls, show, stats, verify and inflate run on its state, counting it by its record', async () => {
    const bodies = requestsOf(6);
    const { dir, sent } = await run(bodies);
    const key = sent.find((p) => p.key !== undefined)!.key!;
    for (const args of [['ls'], ['stats'], ['show', key.slice(0, 12)], ['verify']]) {
      const { code, out } = await ctxshed([...args, '--state', dir]);
      expect([args[0], code]).toEqual([args[0], 0]);
      expect(out.length).toBeGreaterThan(0);
      if (args[0] === 'show') expect(out).toMatch(/froze {5}\d+ assistant_text items?/);
    }
    const file = path.join(dir, 'sent.json');
    await fs.writeFile(file, sent[sent.length - 1]!.body);
    const inflated = await ctxshed(['inflate', file, '--state', dir]);
    expect(inflated.code).toBe(0);
    expect(inflated.out).toBe(Buffer.from(bodies[bodies.length - 1]!).toString());
  });
});

describe("a registered kind's originals outside its folder: show, ls and the restore listing", () => {
  let dir: string;
  let key: string;
  let items: FrozenText[];
  beforeAll(async () => {
    const { dir: latched, sent } = await run(requestsOf(6));
    dir = latched;
    key = sent.find((p) => p.key !== undefined)!.key!;
    const record = (await readConversation(await openStateDir(dir), key))!;
    items = record.epochs.flatMap((e) => (e.items?.['assistant_text'] ?? []) as FrozenText[]);
    expect(items.length).toBeGreaterThan(1);
  });

  it('should show an original by its sha256 (or 12 digits of it): its exact bytes, exit 0; --json says whose it is', async () => {
    const item = items[0]!;
    const bytes = await fs.readFile(path.join(dir, 'assistant_text', `${item.sha256}.json`));
    for (const id of [item.sha256, item.sha256.slice(0, 12)]) {
      const shown = await ctxshed(['show', id, '--state', dir]);
      expect(shown.code).toBe(0);
      expect(shown.out).toBe(bytes.toString('utf8'));
    }
    const json = await ctxshed(['show', item.sha256.slice(0, 12), '--state', dir, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      kind: 'assistant_text',
      sha256: item.sha256,
      path: path.join(dir, 'assistant_text', `${item.sha256}.json`),
      bytes: item.bytes,
      intact: true,
      usedBy: [{ key, epoch: expect.any(Number) }],
      text: bytes.toString('utf8'),
    });
  });

  it('should keep its clear errors: a prefix an elided file shares lists both, an unknown id says none', async () => {
    const copy = await tempStateDir('ctxshed-assistant-text-show-');
    await fs.cp(dir, copy, { recursive: true });
    const prefix = items[0]!.sha256.slice(0, 12);
    await fs.mkdir(path.join(copy, 'elided'), { recursive: true });
    await fs.writeFile(path.join(copy, 'elided', `${prefix}${'0'.repeat(52)}.txt`), 'other');
    const ambiguous = await ctxshed(['show', prefix, '--state', copy]);
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.err).toContain(`  assistant_text ${items[0]!.sha256}`);
    expect(ambiguous.err).toContain(`  elided text  ${prefix}${'0'.repeat(52)}`);
    const unknown = await ctxshed(['show', 'f'.repeat(12), '--state', copy]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('has an id starting ffffffffffff');
  });

  it('should count its items in ls: itemsFrozen in --json, and a line of its own in the text', async () => {
    const json = await ctxshed(['ls', '--state', dir, '--json']);
    expect(json.code).toBe(0);
    const conversations = JSON.parse(json.out).conversations as Array<{ key: string; itemsFrozen?: Record<string, number> }>;
    expect(conversations.find((c) => c.key === key)?.itemsFrozen).toEqual({ assistant_text: items.length });
    const text = await ctxshed(['ls', '--state', dir]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`Other kinds: ${items.length} assistant_text items frozen.`);
  });

  it('should list its originals for restore, and say which is gone', async () => {
    const [gone, ...kept] = items;
    const copy = await tempStateDir('ctxshed-assistant-text-list-');
    await fs.cp(dir, copy, { recursive: true });
    await fs.rm(path.join(copy, 'assistant_text', `${gone!.sha256}.json`));
    const list = await listRestorable(await openStateDir(copy));
    const conversation = list.conversations.find((c) => c.key === key)!;
    expect(conversation.originals).toEqual(
      items.map((i) => ({ sha256: i.sha256, kind: 'frozen assistant text', bytes: i.bytes, epoch: expect.any(Number), present: i !== gone })),
    );
    // The same through a store's own reads (what a Postgres gateway lists by).
    expect(await listOriginals(new FsStore(await openStateDir(copy)))).toEqual(list);
    const text = renderSpans(list, 100).content[0]!.text;
    for (const item of kept) expect(text).toMatch(new RegExp(`\\n  ${item.sha256}  ${item.bytes} bytes  epoch \\d+  frozen assistant text\\n`));
    expect(text).toMatch(new RegExp(`\\n  ${gone!.sha256}  ${gone!.bytes} bytes  epoch \\d+  frozen assistant text  MISSING: not in the state directory\\n`));
    expect(text).toContain(`${items.length} other originals`);
    // An older gateway's listing, without originals, still reads.
    const old = { ...list, conversations: list.conversations.map(({ originals: _, ...c }) => c) };
    expect(decodeList(JSON.stringify(old)).conversations[0]!.originals).toEqual([]);
  });
});

describe("a registered kind's originals in the working set", () => {
  it('should count a restore of one of its originals as a bring-back in the record, as a block or span is counted', async () => {
    const latching = requestsOf(6);
    const dir = await tempStateDir('ctxshed-assistant-text-');
    const engine = new EpochEngine(await openStateDir(dir), SETTINGS);
    let key: string | undefined;
    for (const body of latching) {
      const prepared = await engine.prepare(request(body));
      engine.observe(prepared, { status: 200, usage: FULL });
      key ??= prepared.key;
    }
    await engine.settle();
    const state = await openStateDir(dir);
    const [item] = (await readConversation(state, key!))!.epochs.flatMap((e) => (e.items?.['assistant_text'] ?? []) as FrozenText[]);
    // The client's next request: the model called the restore tool on that text, and has its answer.
    const next = JSON.parse(Buffer.from(requestsOf(7).at(-1)!).toString('utf8')) as { messages: unknown[] };
    next.messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_r1', name: 'mcp__ctxshed__restore', input: { handle: item!.sha256 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_r1', content: 'the text, back' }] },
    );

    await engine.prepare(request(ENCODER.encode(JSON.stringify(next))));
    await engine.settle();

    expect((await readConversation(state, key!))!.bringBacks).toEqual({ [item!.sha256]: 1 });
  });
});

describe("a registered kind's own --mode word", () => {
  it('should be selected by --mode through the CLI: the demo latches its epochs through the real proxy, and its state verifies', async () => {
    const dir = await tempStateDir('ctxshed-assistant-text-mode-');
    const { code, out } = await ctxshed(['demo', '--mode', 'assistant-text', '--turns', '16', '--json', '--state', dir]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { mode: string; conversationKey: string; epochs: unknown[]; verify: { ok: boolean } };
    expect(report.mode).toBe('assistant-text');
    expect(report.verify.ok).toBe(true);
    const record = (await readConversation(await openStateDir(dir), report.conversationKey))!;
    expect(record.epochs.length).toBeGreaterThan(0);
    expect(record.epochs.every((e) => (e.items?.['assistant_text']?.length ?? 0) > 0)).toBe(true);
    expect((await verifyState(dir)).problems).toEqual([]);
    expect((await ctxshed(['verify', '--state', dir])).code).toBe(0);
  });

  it('should refuse a word no kind registered, naming every word, exit 2', async () => {
    const { code, err } = await ctxshed(['demo', '--mode', 'assistant_texts', '--turns', '1', '--json']);
    expect(code).toBe(2);
    expect(err).toContain('--mode takes rescue, shed or assistant-text, not "assistant_texts"');
  });

  it("should say in the banner that its mode is on, and what becomes stubs, from the kind's record", () => {
    const config = proxyConfigFrom({ state: undefined, upstream: 'http://127.0.0.1:9', port: 0, mode: 'assistant-text' }, {});
    expect(bannerLines(config, 'http://127.0.0.1:1', { elidedDir: '/s/elided', spansDir: '/s/spans' })).toEqual([
      'ctxshed: assistant-text on at http://127.0.0.1:1 -> http://127.0.0.1:9',
      "ctxshed: epochs latch at 55% of the model's window or, on a window over 200,000, at 120,000 tokens; old assistant_text items become stubs, originals kept in <state>/assistant_text",
    ]);
  });

  it("should list the word in --mode's help while the kind is registered", async () => {
    // yargs prints help with console.log.
    let help = '';
    const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
      help += parts.join(' ');
    });
    try {
      expect((await ctxshed(['serve', '--help'])).code).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(help.replace(/\s+/g, ' ')).toContain('choices: rescue, shed, assistant-text');
  });
});
