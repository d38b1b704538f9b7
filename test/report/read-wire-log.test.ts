import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWireTally, WireLogReader } from '../../src/report/read-wire-log.js';
import { WIRE_TORN_MARKER } from '../../src/state/wire-log.js';
import { tempStateDir } from '../support/test-proxy.js';
import { KEY_A, wire } from './report-fixtures.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempStateDir('ctxshed-report-');
  file = path.join(dir, 'wire.jsonl');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const line = (i: number): string => `${JSON.stringify(wire({ t: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` }))}\n`;

describe('readWireTally', () => {
  it('should fold every complete line', async () => {
    await fs.writeFile(file, line(1) + line(2) + line(3));

    const tally = await readWireTally(file);

    expect(tally.records).toBe(3);
    expect(tally.conversations.get(KEY_A)!.requests).toBe(3);
  });

  it('should give an empty tally when there is no wire log yet', async () => {
    const tally = await readWireTally(file);

    expect([tally.lines, tally.records]).toEqual([0, 0]);
  });

  it('should tolerate a torn line closed by its marker, a note, blank lines and a torn last line', async () => {
    const torn = line(2).slice(0, 50);
    const note = `${JSON.stringify({ t: '2026-01-01T00:00:03.000Z', note: 'state_recovered', detail: 'ok' })}\n`;
    await fs.writeFile(file, `${line(1)}${torn}\n${JSON.stringify(WIRE_TORN_MARKER)}\n${line(3)}\n${note}${line(4).slice(0, 30)}`);

    const tally = await readWireTally(file);

    expect([tally.records, tally.unreadable, tally.tornMarkers, tally.notes]).toEqual([2, 1, 1, 1]);
  });

  it('should read a log with multi-byte text and CRLF line ends', async () => {
    const prompt = wire({ t: '2026-01-01T00:00:01.000Z', agentId: 'agent-é-✓-😀' });
    await fs.writeFile(file, `${JSON.stringify(prompt)}\r\n${line(2)}`);

    const tally = await readWireTally(file);

    expect(tally.records).toBe(2);
    expect(tally.conversations.get(KEY_A)!.agentId).toBe('agent-é-✓-😀');
  });

  it('should refuse to read the log through a symbolic link', async () => {
    const elsewhere = path.join(dir, 'elsewhere.jsonl');
    await fs.writeFile(elsewhere, line(1));
    await fs.symlink(elsewhere, file);

    await expect(readWireTally(file)).rejects.toMatchObject({ code: 'ELOOP' });
  });
});

describe('WireLogReader', () => {
  it('should fold only what was appended since the last look, and an unfinished line once it is finished', async () => {
    const reader = new WireLogReader(file);
    await fs.writeFile(file, line(1));
    expect((await reader.catchUp()).records).toBe(1);

    const next = line(2);
    await fs.appendFile(file, next.slice(0, 40));
    const half = await reader.catchUp();
    expect([half.records, half.unreadable, reader.offset]).toEqual([1, 0, Buffer.byteLength(line(1))]);

    await fs.appendFile(file, next.slice(40) + line(3));
    const whole = await reader.catchUp();
    expect([whole.records, whole.unreadable]).toEqual([3, 0]);
    expect(reader.offset).toBe((await fs.stat(file)).size);
  });

  it('should start over when the log is truncated or replaced', async () => {
    const reader = new WireLogReader(file);
    await fs.writeFile(file, line(1) + line(2) + line(3));
    await reader.catchUp();

    await fs.writeFile(file, line(4));
    expect((await reader.catchUp()).records).toBe(1);

    const replacement = path.join(dir, 'new.jsonl');
    await fs.writeFile(replacement, line(5) + line(6));
    await fs.rename(replacement, file);
    expect((await reader.catchUp()).records).toBe(2);
  });

  it('should find the last line end across read chunks in a long line', async () => {
    const big = `${JSON.stringify({ ...wire({ t: '2026-01-01T00:00:01.000Z' }), pad: 'x'.repeat(200_000) })}\n`;
    await fs.writeFile(file, big + line(2).slice(0, 20));

    const reader = new WireLogReader(file);
    const tally = await reader.catchUp();

    expect(tally.records).toBe(1);
    expect(reader.offset).toBe(Buffer.byteLength(big));
  });
});
