import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import type { Findings } from '../../src/state/verify-findings.js';
import { verifyWire } from '../../src/state/verify-wire.js';
import { WIRE_TORN_MARKER } from '../../src/state/wire-log.js';
import { makeTempDir, removeTempDir } from './fixtures/state-fixtures.js';

let tmp: string;
let state: StateDir;
let findings: Findings;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  findings = { problems: [], notes: [] };
});
afterEach(async () => {
  await removeTempDir(tmp);
});

async function wire(text: string): Promise<Findings> {
  await fs.writeFile(state.wirePath, text, { mode: 0o600 });
  await verifyWire(state, findings);
  return findings;
}

describe('verifyWire', () => {
  it('should accept complete JSON lines and an empty file', async () => {
    expect(await wire('{"a":1}\n{"b":2}\n')).toEqual({ problems: [], notes: [] });
    expect(await wire('')).toEqual({ problems: [], notes: [] });
  });

  it('should note, not fail, a final line cut short by a crash', async () => {
    expect(await wire('{"a":1}\n{"b":')).toEqual({
      problems: [],
      notes: ['wire.jsonl: line 2, the last, is incomplete (a crash mid-append)'],
    });
  });

  it('should fail a complete line that is not JSON', async () => {
    expect((await wire('{"a":1}\nnot json\n{"b":2}\n')).problems).toEqual(['wire.jsonl: line 2 is not valid JSON']);
  });

  it('should note a torn line that a restarted writer closed with its marker', async () => {
    const result = await wire(`{"a":1}\n{"b":\n${JSON.stringify(WIRE_TORN_MARKER)}\n{"c":3}\n`);
    expect(result).toEqual({ problems: [], notes: ['wire.jsonl: line 2 was cut short by a crash and closed later'] });
  });

  it('should warn about a wire log readable by others', async () => {
    await fs.writeFile(state.wirePath, '', { mode: 0o644 });
    await fs.chmod(state.wirePath, 0o644);
    await verifyWire(state, findings);
    expect(findings.problems).toEqual([]);
    expect(findings.notes).toEqual(['warning: wire.jsonl: mode 0644 is wider than 0600 (chmod 600 it)']);
  });
});
