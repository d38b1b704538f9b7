import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EPOCH_KIND_INFO } from '../../src/core/epochs/kind-info.js';
import { listShownFiles, readRecordsForReport, shownExtsOf } from '../../src/report/read-report-state.js';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { layoutPaths, type StateDir } from '../../src/state/layout.js';
import { tempStateDir } from '../support/test-proxy.js';
import { block, epoch, KEY_A, KEY_B, record } from './report-fixtures.js';

let state: StateDir;
beforeEach(async () => {
  state = layoutPaths(await tempStateDir('ctxshed-report-'));
});
afterEach(async () => {
  await fs.rm(state.root, { recursive: true, force: true });
});

describe('readRecordsForReport', () => {
  it('should read the records, oldest first, and turn a broken one into a warning', async () => {
    await fs.mkdir(state.conversationsDir);
    const newer = record([epoch(1, '2026-01-02T00:00:00.000Z', [block(0, 2000)])], KEY_A);
    const older = record([epoch(1, '2026-01-01T00:00:00.000Z', [block(0, 2000)])], KEY_B);
    await fs.writeFile(path.join(state.conversationsDir, `${KEY_A}.json`), serializeConversationRecord(newer));
    await fs.writeFile(path.join(state.conversationsDir, `${KEY_B}.json`), serializeConversationRecord(older));
    await fs.writeFile(path.join(state.conversationsDir, `${'c'.repeat(64)}.json`), '{"format":');
    await fs.writeFile(path.join(state.conversationsDir, `${KEY_A}.json.123456`), 'leftover');

    const { records, warnings } = await readRecordsForReport(state);

    expect(records.map((r) => r.key)).toEqual([KEY_B, KEY_A]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cccc.*not valid JSON.*ctxshed verify/);
  });

  it('should read no records from a state directory without conversations/', async () => {
    expect(await readRecordsForReport(state)).toEqual({ records: [], warnings: [] });
  });
});

describe('listShownFiles', () => {
  const original = (tag: string, ext: string) => ({ kind: 'original', of: { tag, ext } });

  it('should list the elided texts and original JSON files by their sha256, nothing else', async () => {
    await fs.mkdir(state.elidedDir);
    for (const name of [`${'a'.repeat(64)}.txt`, `${'b'.repeat(64)}.json`, `${'c'.repeat(64)}.txt.99`, 'notes.txt']) {
      await fs.writeFile(path.join(state.elidedDir, name), 'x');
    }

    expect(await listShownFiles(state, [])).toEqual([
      { id: 'a'.repeat(64), ...original('tool_results', 'txt') },
      { id: 'b'.repeat(64), ...original('tool_results', 'json') },
    ]);
  });

  it('should list the shed spans by their handles, from their .json files only, none without spans/, and no removed thinking', async () => {
    expect(await listShownFiles(state, [])).toEqual([]);
    await fs.mkdir(state.spansDir);
    await fs.mkdir(state.thinkingDir);
    for (const name of [`${'a'.repeat(64)}.json`, `${'a'.repeat(64)}.md`, `${'b'.repeat(64)}.md`, `${'c'.repeat(64)}.json.12`, 'notes.txt']) {
      await fs.writeFile(path.join(state.spansDir, name), 'x');
    }
    await fs.writeFile(path.join(state.thinkingDir, `${'d'.repeat(64)}.json`), 'x');

    expect(await listShownFiles(state, [])).toEqual([{ id: 'a'.repeat(64), ...original('span', 'json') }]);
  });

  it('should name each file as show named it before kinds were one shape', () => {
    expect(Object.fromEntries(shownExtsOf(EPOCH_KIND_INFO.tool_results, []))).toEqual({
      txt: { kind: 'elided', label: 'elided text' },
      json: { kind: 'elided-json', label: 'elided JSON' },
    });
    expect(Object.fromEntries(shownExtsOf(EPOCH_KIND_INFO.span, []))).toEqual({ json: { kind: 'span', label: 'shed span' } });
    expect(shownExtsOf(EPOCH_KIND_INFO.thinking_only, []).size).toBe(0);
  });
});
