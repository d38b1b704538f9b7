import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyState } from '../../src/state/verify-state.js';
import { appendWireRecord, WIRE_DISK_FULL_MARKER, WIRE_TORN_MARKER, WireLog } from '../../src/state/wire-log.js';
import { spawnFixture, waitFixture } from './fixtures/run-tsx.js';
import { modeOf, withUmask, useStateDir } from './fixtures/state-fixtures.js';

const dirs = useStateDir();

const wireText = (): Promise<string> => fs.readFile(dirs.state.wirePath, 'utf8');

describe('appendWireRecord', () => {
  it('should append one JSON line per record to a 0600 wire.jsonl, even under umask 000', async () => {
    await withUmask(0o000, async () => {
      await appendWireRecord(dirs.state, { path: '/v1/messages', status: 200 });
      await appendWireRecord(dirs.state, { path: '/v1/messages', status: 529 });
    });
    expect(await wireText()).toBe('{"path":"/v1/messages","status":200}\n{"path":"/v1/messages","status":529}\n');
    expect(await modeOf(dirs.state.wirePath)).toBe(0o600);
  });

  it('should tighten a wire.jsonl that an older run left readable by others', async () => {
    await fs.writeFile(dirs.state.wirePath, '', { mode: 0o644 });
    await fs.chmod(dirs.state.wirePath, 0o644);
    await appendWireRecord(dirs.state, { a: 1 });
    expect(await modeOf(dirs.state.wirePath)).toBe(0o600);
  });

  it('should refuse to append through a symlink planted at wire.jsonl', async () => {
    const outside = path.join(dirs.tmp, 'outside.log');
    await fs.writeFile(outside, 'precious\n');
    await fs.symlink(outside, dirs.state.wirePath);
    await expect(appendWireRecord(dirs.state, { a: 1 })).rejects.toMatchObject({ code: 'STATE_WIRE_FAILED' });
    expect(await fs.readFile(outside, 'utf8')).toBe('precious\n');
  });
});

describe('WireLog', () => {
  it('should keep the order of appends made without awaiting each', async () => {
    const log = new WireLog(dirs.state.wirePath);
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append({ i })));
    await log.close();
    const lines = (await wireText()).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('should write the lines of many appends in one batch, and those still waiting when closed', async () => {
    // Arrange: a delay no test waits for.
    const log = new WireLog(dirs.state.wirePath, 60_000);
    const appended = [log.append({ n: 1 }), log.append({ n: 2 })];

    // Act
    const before = await fs.readFile(dirs.state.wirePath, 'utf8').catch(() => '');
    await log.close();

    // Assert
    await Promise.all(appended);
    expect(before).toBe('');
    expect(await wireText()).toBe('{"n":1}\n{"n":2}\n');
  });

  it('should write a batch at once when it reaches its size cap', async () => {
    // Arrange
    const log = new WireLog(dirs.state.wirePath, 60_000);

    // Act: two records of 40 KB pass the 64 KB cap.
    await Promise.all([log.append({ a: 'x'.repeat(40_000) }), log.append({ b: 'y'.repeat(40_000) })]);

    // Assert
    expect((await wireText()).split('\n')).toHaveLength(3);
    await log.close();
  });

  it('should reject a failed append with a catchable STATE_WIRE_FAILED and keep going', async () => {
    const log = new WireLog(dirs.state.wirePath);
    await expect(log.append({ big: 1n } as object)).rejects.toMatchObject({ code: 'STATE_WIRE_FAILED' });
    await log.append({ ok: true });
    await log.close();
    expect(await wireText()).toBe('{"ok":true}\n');
  });

  it('should reject when the disk write fails, then recover once it can write', async () => {
    await fs.mkdir(dirs.state.wirePath); // open() fails: EISDIR
    const log = new WireLog(dirs.state.wirePath);
    await expect(log.append({ n: 1 })).rejects.toMatchObject({ code: 'STATE_WIRE_FAILED' });
    await fs.rmdir(dirs.state.wirePath);
    await log.append({ n: 2 });
    await log.close();
    expect(await wireText()).toBe('{"n":2}\n');
  });

  it('should open the file again when used after close', async () => {
    const log = new WireLog(dirs.state.wirePath);
    await log.append({ n: 1 });
    await log.close();
    await log.append({ n: 2 });
    await log.close();
    expect(await wireText()).toBe('{"n":1}\n{"n":2}\n');
  });

  it('should close a line torn by a crash before appending, so verify still passes', async () => {
    await fs.writeFile(dirs.state.wirePath, '{"n":1}\n{"n":2,"pa', { mode: 0o600 });
    const log = new WireLog(dirs.state.wirePath);
    await log.append({ n: 3 });
    await log.append({ n: 4 });
    await log.close();
    const marker = JSON.stringify(WIRE_TORN_MARKER);
    expect(await wireText()).toBe(`{"n":1}\n{"n":2,"pa\n${marker}\n{"n":3}\n{"n":4}\n`);
    const report = await verifyState(dirs.tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes.join('\n')).toContain('line 2 was cut short by a crash');
  });

  it("should not take the tail of another process's append still being written for a torn line", async () => {
    // Another writer's line shows its first bytes, and finishes a moment later (before the recheck).
    await fs.writeFile(dirs.state.wirePath, '{"n":1}\n{"n":2,"pa', { mode: 0o600 });
    const log = new WireLog(dirs.state.wirePath, 0);
    const finishing = new Promise<void>((resolve) => setTimeout(() => void fs.appendFile(dirs.state.wirePath, 'd":1}\n').then(() => resolve()), 2));

    await log.append({ n: 3 });
    await finishing;
    await log.close();

    expect(await wireText()).toBe('{"n":1}\n{"n":2,"pad":1}\n{"n":3}\n');
  });

  it('should never interleave lines from two processes appending at once', async () => {
    const count = 300;
    const startAt = String(Date.now() + 1_500);
    const results = await Promise.all(['x', 'y'].map((worker) => waitFixture(spawnFixture('wire-worker.ts', [dirs.tmp, worker, String(count), startAt]))));
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
    const lines = (await wireText()).split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((line) => JSON.parse(line) as { worker: string; i: number; padding: string });
    for (const worker of ['x', 'y']) {
      const mine = records.filter((record) => record.worker === worker);
      expect(mine.map((record) => record.i)).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(mine.every((record) => record.padding === worker.repeat(6000))).toBe(true);
    }
  }, 60_000);
});

describe('WireLog on a full disk', () => {
  /** FileHandle.prototype, whose write the tests make fail as a full disk does. */
  async function handlePrototype(): Promise<{ write: (...args: unknown[]) => Promise<{ bytesWritten: number }> }> {
    const probe = path.join(dirs.tmp, 'probe');
    const handle = await fs.open(probe, 'w');
    await handle.close();
    await fs.rm(probe);
    return Object.getPrototypeOf(handle) as { write: (...args: unknown[]) => Promise<{ bytesWritten: number }> };
  }

  function enospc(): NodeJS.ErrnoException {
    return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('should close a line the disk cut short with the disk-full marker, and verify should say the disk was full', async () => {
    const log = new WireLog(dirs.state.wirePath, 0);
    await log.append({ n: 1 });
    const proto = await handlePrototype();
    const write = proto.write;
    // As on a full disk: the write takes part of the bytes, and writing the rest fails with ENOSPC.
    vi.spyOn(proto, 'write')
      .mockImplementationOnce(async function (this: unknown, ...args: unknown[]) {
        const [bytes] = args as [Buffer];
        return write.call(this, bytes, 0, 6);
      })
      .mockImplementationOnce(async () => {
        throw enospc();
      });

    await expect(log.append({ n: 2, pad: 'x'.repeat(20) })).rejects.toMatchObject({ code: 'STATE_WIRE_FAILED', message: expect.stringContaining('ENOSPC') });
    vi.restoreAllMocks();
    await log.append({ n: 3 });
    await log.close();

    expect(await wireText()).toBe(`{"n":1}\n{"n":2\n${JSON.stringify(WIRE_DISK_FULL_MARKER)}\n{"n":3}\n`);
    const report = await verifyState(dirs.tmp);
    expect(report.problems).toEqual([]);
    expect(report.notes).toContain('wire.jsonl: line 2 was cut short because the disk was full, and closed later');
    expect(report.notes.join('\n')).not.toContain('crash');
  });

  it("should still call a torn tail a crash when this log's own failed write put nothing in the file", async () => {
    await fs.writeFile(dirs.state.wirePath, '{"n":1}\n{"n":2,"pa', { mode: 0o600 });
    const log = new WireLog(dirs.state.wirePath, 0);
    const proto = await handlePrototype();
    vi.spyOn(proto, 'write').mockImplementationOnce(async () => {
      throw enospc();
    });

    await expect(log.append({ n: 3 })).rejects.toMatchObject({ code: 'STATE_WIRE_FAILED' });
    vi.restoreAllMocks();
    await log.append({ n: 4 });
    await log.close();

    expect(await wireText()).toBe(`{"n":1}\n{"n":2,"pa\n${JSON.stringify(WIRE_TORN_MARKER)}\n{"n":4}\n`);
    expect((await verifyState(dirs.tmp)).notes).toContain('wire.jsonl: line 2 was cut short by a crash and closed later');
  });

  it('should write the rest of a write a signal cut short, leaving no torn line at all', async () => {
    const log = new WireLog(dirs.state.wirePath, 0);
    const proto = await handlePrototype();
    const write = proto.write;
    vi.spyOn(proto, 'write').mockImplementationOnce(async function (this: unknown, ...args: unknown[]) {
      const [bytes] = args as [Buffer];
      return write.call(this, bytes, 0, 3);
    });

    await log.append({ n: 1, s: 'abc' });
    await log.close();

    expect(await wireText()).toBe('{"n":1,"s":"abc"}\n');
  });
});
