import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_SETTINGS, EpochEngine, type EngineRequest } from '../../src/rescue/index.js';
import type { StateDir } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { previewsDir, readPreviews, sessionHashOf } from '../../src/state/preview-file.js';
import { utf8 } from '../core/bodies.js';
import { tempStateDir } from '../support/test-proxy.js';

const SESSION = '5b2f3c1e-0000-4000-8000-000000000001';

function messagesBody(prompt: string): Uint8Array {
  const text = `<system-reminder>context</system-reminder>${prompt}`;
  return utf8(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text }] }] }));
}

function request(target: string, prompt: string, headers: EngineRequest['headers'] = {}): EngineRequest {
  return { method: 'POST', target, headers, body: messagesBody(prompt) };
}

let state: StateDir;
let engine: EpochEngine;

beforeEach(async () => {
  state = await openStateDir(await tempStateDir('ctxshed-preview-'));
  engine = new EpochEngine(state, DEFAULT_ENGINE_SETTINGS, { now: () => new Date('2026-02-03T04:05:06.000Z') });
});

afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true });
});

describe('the previews the engine keeps', () => {
  it("should keep an unlatched conversation's first prompt, once, 0600 in a 0700 folder, named by its session", async () => {
    const first = await engine.prepare(request('/v1/messages', 'Fix the flaky test.', { 'x-claude-code-session-id': SESSION }));
    await engine.settle();
    const names = await fs.readdir(previewsDir(state));
    const file = path.join(previewsDir(state), names[0]!);
    const before = await fs.readFile(file, 'utf8');
    await engine.prepare(request('/v1/messages', 'Fix the flaky test.', { 'x-claude-code-session-id': SESSION }));
    await engine.settle();

    expect(first).toMatchObject({ reason: 'no_epoch' });
    expect(names).toEqual([`${sessionHashOf(SESSION)}-${first.key}.json`]);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(previewsDir(state))).mode & 0o777).toBe(0o700);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    const previews = await readPreviews(state, sessionHashOf(SESSION));
    expect(previews.get(first.key!)).toEqual({
      key: first.key,
      session: sessionHashOf(SESSION),
      agentId: null,
      firstPrompt: 'Fix the flaky test.',
      t: '2026-02-03T04:05:06.000Z',
    });
    expect((await readPreviews(state, sessionHashOf('another'))).size).toBe(0);
  });

  it('should keep none for a count_tokens call, which is no conversation of its own', async () => {
    await engine.prepare(request('/v1/messages/count_tokens', 'Count these tools.'));
    await engine.settle();

    expect((await readPreviews(state)).size).toBe(0);
  });
});
