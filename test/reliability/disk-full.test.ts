/**
 * Disk full, then writable again, under a running proxy: it keeps forwarding (no new epoch while
 * it cannot write), says so once in the wire log, and latches again once it can. The state
 * directory lives on a small tmpfs (root only; skipped with a message otherwise).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { verifyState } from '../../src/state/verify-state.js';
import { WIRE_DISK_FULL_MARKER, WireLog } from '../../src/state/wire-log.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startTestProxy, testConfig, waitForWire } from '../support/test-proxy.js';

function tryMount(dir: string, size: string): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
}

/** Fills the filesystem of `dir` until ENOSPC, leaving about `leave` bytes. */
async function fill(file: string, leave: number): Promise<number> {
  const handle = await fs.open(file, 'w');
  let written = 0;
  try {
    const stat = await fs.statfs(path.dirname(file));
    const room = Number(stat.bavail) * Number(stat.bsize) - leave;
    if (room > 0) written += (await handle.write(Buffer.alloc(room, 0x41))).bytesWritten;
  } finally {
    await handle.close();
  }
  return written;
}

/** The wire log's records; a line a full disk cut short (closed by a torn-line marker) is counted, not parsed. */
async function readWire(dir: string): Promise<Array<Record<string, unknown>> & { torn?: number }> {
  const out: Array<Record<string, unknown>> & { torn?: number } = [];
  out.torn = 0;
  for (const line of (await fs.readFile(path.join(dir, 'wire.jsonl'), 'utf8')).split('\n')) {
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      out.torn++;
    }
  }
  return out;
}

describe('disk full while running', () => {
  it('should keep forwarding, note it once in the wire log, and recover when there is room again', async (ctx) => {
    const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-tmpfs-'));
    const why = tryMount(mountPoint, '1m');
    if (why !== undefined) {
      await fs.rmdir(mountPoint);
      ctx.skip(`cannot mount a tmpfs here (${why}); disk-full not tested`);
      return;
    }
    const dir = path.join(mountPoint, 'state');
    const upstream = await startMessagesApi();
    const proxy = await startTestProxy(dir, testConfig(upstream.url));
    try {
      const client = new ScriptedClient(proxy.url);
      for (let i = 0; i < 16; i++) await client.turnOnce();
      // The wire log writes its lines in batches: wait until the file holds them all.
      await waitForWire(dir, 16);
      // The wire log keeps room reserved beyond its end (fallocate --keep-size), so it can still
      // say what happened; everything else is full: the elided files of an epoch cannot be written.
      execFileSync('fallocate', ['--keep-size', '--length', '256KiB', path.join(dir, 'wire.jsonl')]);
      const filled = await fill(path.join(mountPoint, 'filler'), 0);
      const fullStatuses: number[] = [];
      for (let i = 0; i < 12; i++) fullStatuses.push((await client.turnOnce()).status);
      const whileFull = await readWire(dir);
      const conversationsWhileFull = await fs.readdir(path.join(dir, 'conversations'));

      await fs.unlink(path.join(mountPoint, 'filler'));
      const afterStatuses: number[] = [];
      for (let i = 0; i < 4; i++) afterStatuses.push((await client.turnOnce()).status);
      // A clean stop writes every wire line still waiting to be batched (state/wire-log.ts).
      await proxy.close();
      const wire = await readWire(dir);
      const notes = wire.filter((r) => typeof r['note'] === 'string').map((r) => r['note']);
      const received = upstream.requests.filter(isMessagesRequest).map((r) => r.body);
      const sent = client.sent;
      const verify = await verifyState(dir);
      console.log(
        `disk full: filled ${filled} bytes; while full ${fullStatuses.length} requests, ${whileFull.length} wire records (${whileFull.torn} torn), notes ${JSON.stringify(notes)}; after: ${afterStatuses.length} requests`,
      );

      expect(fullStatuses.every((s) => s === 200)).toBe(true);
      expect(afterStatuses.every((s) => s === 200)).toBe(true);
      expect(conversationsWhileFull).toEqual([]);
      expect(notes.filter((n) => n === 'state_unavailable')).toHaveLength(1);
      expect(notes.at(-1)).toBe('state_recovered');
      // Latched once it could write again: the last request carried stubs.
      expect(wire.filter((r) => typeof r['rescued'] === 'number').at(-1)!['rescued']).toBeGreaterThan(0);
      // Every body forwarded was the original or a valid rewrite.
      for (const [i, body] of received.entries()) {
        if (body.equals(sent[i]!)) continue;
        expect(indexTranscript(body).kind).toBe('indexed');
        expect(Buffer.from((await inflateFromState(layoutPaths(dir), body)).body).equals(sent[i]!)).toBe(true);
      }
      expect(verify.problems).toEqual([]);
      // A wire line the full disk cut short is said to be that, never a crash's (issue 21).
      expect(verify.notes.join('\n')).not.toContain('crash');
    } finally {
      await proxy.close();
      await upstream.close();
      execFileSync('umount', [mountPoint]);
      await fs.rmdir(mountPoint);
    }
  }, 60_000);

  it('should say a wire line a real ENOSPC cut short was cut by the full disk, not by a crash', async (ctx) => {
    const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-tmpfs-'));
    const why = tryMount(mountPoint, '1m');
    if (why !== undefined) {
      await fs.rmdir(mountPoint);
      ctx.skip(`cannot mount a tmpfs here (${why}); disk-full not tested`);
      return;
    }
    try {
      const dir = path.join(mountPoint, 'state');
      const state = await openStateDir(dir);
      const log = new WireLog(state.wirePath, 0);
      // 301-byte lines: a 4 KiB page ends inside the 14th, so the full disk cuts that one short.
      const line = (n: number): object => ({ n, pad: 'x'.repeat(301 - JSON.stringify({ n: 10, pad: '' }).length - 1) });
      await log.append(line(10));
      await fill(path.join(mountPoint, 'filler'), 0);
      let failed: unknown;
      for (let n = 11; n < 40 && failed === undefined; n++) await log.append(line(n)).catch((error: unknown) => (failed = error));
      const cut = await fs.readFile(state.wirePath, 'utf8');
      await fs.unlink(path.join(mountPoint, 'filler'));
      await log.append(line(99));
      await log.close();
      const verify = await verifyState(dir);
      const text = await fs.readFile(state.wirePath, 'utf8');

      expect(String(failed)).toContain('ENOSPC');
      expect(cut.endsWith('\n')).toBe(false);
      expect(text).toContain(`\n${JSON.stringify(WIRE_DISK_FULL_MARKER)}\n`);
      expect(verify.problems).toEqual([]);
      expect(verify.notes.filter((n) => n.startsWith('wire.jsonl'))).toEqual([
        expect.stringMatching(/^wire\.jsonl: line \d+ was cut short because the disk was full, and closed later$/),
      ]);
    } finally {
      execFileSync('umount', [mountPoint]);
      await fs.rmdir(mountPoint);
    }
  }, 60_000);
});
