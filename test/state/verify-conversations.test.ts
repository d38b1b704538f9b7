import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { openStateDir, type StateDir } from '../../src/state/open-state-dir.js';
import { verifyConversations } from '../../src/state/verify-conversations.js';
import type { Findings, VerifyCounts } from '../../src/state/verify-findings.js';
import { blockFor, epochOf, keyOf, makeTempDir, recordOf, removeTempDir } from './fixtures/state-fixtures.js';

const KEY = keyOf('a');
const one = blockFor('first', 0).block;
const two = { ...blockFor('second', 1).block, rawSha256: 'c'.repeat(64) };
const RECORD = recordOf(KEY, [epochOf(1, [one]), epochOf(2, [two])]);

let tmp: string;
let state: StateDir;
let findings: Findings;
let checked: VerifyCounts;
beforeEach(async () => {
  tmp = await makeTempDir();
  state = await openStateDir(tmp);
  findings = { problems: [], notes: [] };
  checked = { elided: 0, conversations: 0, epochs: 0, blocks: 0, spans: 0 };
});
afterEach(async () => {
  await removeTempDir(tmp);
});

async function put(name: string, content: string | Uint8Array): Promise<void> {
  await fs.writeFile(path.join(state.conversationsDir, name), content, { mode: 0o600 });
}

describe('verifyConversations', () => {
  it('should accept a record, count it with its epochs and blocks, and return it for the file checks', async () => {
    await put(`${KEY}.json`, serializeConversationRecord(RECORD));
    const records = await verifyConversations(state, findings, checked);
    expect(findings).toEqual({ problems: [], notes: [] });
    expect(checked).toEqual({ elided: 0, conversations: 1, epochs: 2, blocks: 2, spans: 0 });
    expect(records).toEqual([{ record: RECORD, where: `conversations/${KEY}.json` }]);
  });

  it('should report a record that is not JSON, one with a bad shape and one under another key', async () => {
    await put(`${keyOf('x')}.json`, '{"format": "ctxshed.conv');
    await put(`${keyOf('y')}.json`, JSON.stringify({ ...RECORD, key: keyOf('y'), epochs: [epochOf(2, [])] }));
    await put(`${keyOf('z')}.json`, JSON.stringify(RECORD));
    await verifyConversations(state, findings, checked);
    const text = findings.problems.join('\n');
    expect(text).toContain(`conversations/${keyOf('x')}.json: not valid JSON`);
    expect(text).toContain(`conversations/${keyOf('y')}.json: epoch #1: numbered 2`);
    expect(text).toContain(`conversations/${keyOf('z')}.json: key "${KEY}" does not match its file name`);
    expect(checked.conversations).toBe(0);
  });

  it('should ignore leftovers with a note, report strays and warn of wide modes', async () => {
    await put('x.json.123456', '{"half');
    await put('todo.txt', 'stray');
    await put(`${KEY}.json`, serializeConversationRecord(RECORD));
    await fs.chmod(path.join(state.conversationsDir, `${KEY}.json`), 0o664);
    await verifyConversations(state, findings, checked);
    expect(findings.problems).toEqual(['conversations/todo.txt: stray file (not <64 hex key>.json)']);
    expect(findings.notes).toEqual([
      `warning: conversations/${KEY}.json: mode 0664 is wider than 0600 (chmod 600 it)`,
      'conversations/: ignored 1 temp file(s) left by an interrupted atomic write',
    ]);
  });

  it('should fail a version 3 epoch whose ledger lacks a row for a block it froze', async () => {
    // Arrange: epoch 2 is version 3 and froze one labelled block, but its ledger is empty.
    const labelled = { ...two, label: 'pointer' as const, rule: 'default' as const, tool: 'Bash', input: 'ls', refetch: 'elided-file' as const };
    const v3 = { ...epochOf(2, [labelled]), policy: { name: 'default', version: 3, keepRecent: 6, minBytes: 1024 }, ledger: [] };
    await put(`${KEY}.json`, serializeConversationRecord(recordOf(KEY, [epochOf(1, [one]), v3])));

    // Act
    await verifyConversations(state, findings, checked);

    // Assert
    expect(findings.problems).toEqual([`conversations/${KEY}.json: epoch #2 ordinal 1: no ledger row`]);
  });

  it('should accept a version 3 epoch whose ledger lists every block it froze', async () => {
    // Arrange
    const labelled = { ...two, label: 'drop' as const, rule: 'duplicate' as const, tool: 'Bash', input: 'ls', refetch: 'elided-file' as const };
    const row = {
      ordinal: 1,
      id: 'toolu_1',
      tool: 'Bash',
      sha: two.sha256.slice(0, 12),
      score: 'local' as const,
      verdict: 'drop' as const,
      rule: 'duplicate' as const,
      refetch: 'elided-file' as const,
    };
    const v3 = { ...epochOf(2, [labelled]), policy: { name: 'default', version: 3, keepRecent: 6, minBytes: 1024 }, ledger: [row] };
    await put(`${KEY}.json`, serializeConversationRecord(recordOf(KEY, [epochOf(1, [one]), v3])));

    // Act
    await verifyConversations(state, findings, checked);

    // Assert
    expect(findings.problems).toEqual([]);
  });
});
