import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freezeSpan, planShed, applyEpochs, SPANS } from '../../src/core/index.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../../src/state/span-file.js';
import { SMALL_RECENT_TOKENS, bodyOf, session } from '../core/shed/shed-bodies.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

let tmp: string;
let state: StateDir;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
});
afterEach(async () => {
  await removeTempDir(tmp);
});

/** A shed body of a 12-turn session, with its span's files written. */
async function shedBody(): Promise<{ original: Uint8Array; shed: Uint8Array; sha: string }> {
  const original = bodyOf(session(12));
  const plan = planShed(original, [], { sha256: sha256Hex, recentTokens: SMALL_RECENT_TOKENS });
  if (plan.kind !== 'planned') throw new Error(plan.reason);
  await writeSpanFiles(state, plan.span.sha256, plan.span.text);
  const out = applyEpochs(SPANS, original, [freezeSpan(plan.span)], { spansDir: state.spansDir, sha256: sha256Hex });
  if (out.kind !== 'applied') throw new Error(out.reason);
  return { original, shed: out.body, sha: plan.span.sha256 };
}

describe('inflateFromState', () => {
  it('should rebuild a shed body byte for byte from spans/<sha256>.json', async () => {
    const { original, shed } = await shedBody();

    const inflated = await inflateFromState(state, shed);

    expect(Buffer.from(inflated.body).equals(Buffer.from(original))).toBe(true);
    expect(inflated).toMatchObject({ spans: 1, stubs: 0 });
  });

  it('should refuse a span file that is missing or no longer matches its name', async () => {
    const { shed, sha } = await shedBody();
    const file = path.join(state.spansDir, `${sha}.json`);

    await fs.writeFile(file, 'changed');
    await expect(inflateFromState(state, shed)).rejects.toThrow(/does not match its sha256 name/);
    await fs.unlink(file);
    await expect(inflateFromState(state, shed)).rejects.toThrow(/cannot read span file .*ENOENT/);
  });

  it('should give back a body without stubs unchanged, and refuse one that is no request', async () => {
    const body = bodyOf(session(3));

    expect(await inflateFromState(state, body)).toEqual({ body, stubs: 0, spans: 0, thinking: 0 });
    await expect(inflateFromState(state, Buffer.from('nope'))).rejects.toThrow(/not a Messages API body/);
  });
});
