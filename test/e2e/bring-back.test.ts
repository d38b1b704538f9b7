/**
 * Issue 39 end to end: the careful agent (test/support/careful-model.ts) through the real proxy
 * against the scripted API with its window on. It reads sixteen files of about 13 KB, one fact
 * each, then, for every stub in front of it, restores every page AND Reads the `.md` the stub
 * names, and writes no notes. Two sizes: the facts fit the window once but not twice (every fact
 * comes back, nothing goes over the window), and they do not fit even once (few epochs, no loop,
 * the session ends).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { carefulAgent, carefulFact } from '../support/careful-model.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const PROJECT = { files: 16, bytes: 13_000 };
const MAX_TURNS = 150;

async function runSession(mode: 'rescue' | 'shed', window: number) {
  const dir = await tempStateDir();
  const agent = carefulAgent(dir, PROJECT, 'current');
  const api = await startMessagesApi({
    maxPromptTokens: window,
    respond: (req) => (isMessagesRequest(req) ? { kind: 'message', content: agent.respond(req.body), outputTokens: 20 } : undefined),
  });
  const proxy = await startTestProxy(dir, testConfig(api.url, { window, mode, threshold: 0.4 }));
  const client = new ScriptedClient(proxy.url, { runTool: agent.runTool, prompt: 'Read the sixteen files, then check your work.', compactOnRefusal: true });
  cleanups.push(
    () => api.close(),
    () => proxy.close(),
    () => client.close(),
  );
  let turns = 0;
  let refused = 0;
  for (; !agent.log.done && turns < MAX_TURNS; turns++) {
    // A refusal as too long: the client compacts and goes on, as Claude Code does.
    if ((await client.turnOnce()).status !== 200) refused += 1;
  }
  const wire = await waitForWire(dir, turns);
  const last = api.requests.filter(isMessagesRequest).at(-1)!.body.toString('utf8');
  const epochs = wire.filter((r) => r['latched'] !== undefined).length;
  const facts = Array.from({ length: PROJECT.files }, (_, i) => carefulFact(i)).filter((f) => last.includes(f)).length;
  const peak = Math.max(...api.usages.map((u) => u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens));
  // A loop: an epoch took out an answer that brought something back (no prompt came after the first one).
  const taken = takenAnswers(dir);
  const loops = [...agent.log.bringBackIds].filter((id) => taken.has(id)).length;
  const holds = new Map<string, number>();
  for (const r of wire) if (typeof r['hold'] === 'string') holds.set(r['hold'], (holds.get(r['hold']) ?? 0) + 1);
  console.info(
    `bring-back ${mode} window ${window}: ${turns} turns, ${epochs} epochs, peak ${peak} (${((peak / window) * 100).toFixed(1)}%), ` +
      `${api.refusedForSize()} over the window, ${loops} answers taken back, ${facts} of ${PROJECT.files} facts, ` +
      `${agent.log.restores.length} restores, ${agent.log.reads.length} reads, ${wire.reduce((n, r) => Math.max(n, Number(r['repeats'] ?? 0)), 0)} pointers at most, done ${agent.log.done}, holds ${JSON.stringify([...holds])}`,
  );
  if (process.env['BRING_BACK_DUMP'] !== undefined) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${process.env['BRING_BACK_DUMP']}-${mode}-${window}.json`, last);
    writeFileSync(`${process.env['BRING_BACK_DUMP']}-${mode}-${window}.wire.json`, JSON.stringify(wire, null, 1));
  }
  // Lossless: every body the API got inflates to a body the client sent, byte for byte.
  const sentHashes = new Set(client.sent.map((b) => sha256Hex(b)));
  let notInflated = 0;
  let pointers = 0;
  for (const req of api.requests.filter(isMessagesRequest)) {
    const inflated = await inflateFromState(layoutPaths(dir), req.body);
    pointers += inflated.repeats ?? 0;
    if (!sentHashes.has(sha256Hex(inflated.body))) notInflated += 1;
  }
  return { api, wire, last, turns, epochs, facts, refused, agent, loops, peak, notInflated, pointers };
}

/** Every tool_use id whose answer an epoch took out: in a span's exact bytes, or a frozen block's call. */
function takenAnswers(dir: string): Set<string> {
  const ids = new Set<string>();
  for (const name of listDir(path.join(dir, 'spans')).filter((n) => n.endsWith('.json'))) {
    for (const m of readFileSync(path.join(dir, 'spans', name), 'utf8').matchAll(/"tool_use_id":"([^"]+)"/g)) ids.add(m[1]!);
  }
  for (const name of listDir(path.join(dir, 'conversations'))) {
    const record = JSON.parse(readFileSync(path.join(dir, 'conversations', name), 'utf8')) as { epochs: Array<{ blocks?: Array<{ toolUseId: string }> }> };
    for (const e of record.epochs) for (const b of e.blocks ?? []) ids.add(b.toolUseId);
  }
  return ids;
}

function listDir(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

describe('the careful agent brings everything back (issue 39)', () => {
  for (const mode of ['shed', 'rescue'] as const) {
    it(`should bring every fact back with nothing over the window when the facts fit once, in ${mode} mode`, async () => {
      const run = await runSession(mode, 85_000);
      expect(run.agent.log.done).toBe(true);
      expect(run.api.refusedForSize()).toBe(0);
      expect(run.facts).toBe(PROJECT.files);
      expect(run.loops).toBe(0);
      expect(run.notInflated).toBe(0);
      expect(run.pointers).toBeGreaterThan(0);
    });

    it(`should end in few epochs and no loop when the facts do not fit even once, in ${mode} mode`, async () => {
      const run = await runSession(mode, 40_000);
      expect(run.agent.log.done).toBe(true);
      expect(run.turns).toBeLessThan(MAX_TURNS);
      expect(run.epochs).toBeLessThanOrEqual(10);
      expect(run.loops).toBe(0);
      expect(run.notInflated).toBe(0);
    });
  }
});
