import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/report/status-report.js';
import { CLI_PATH } from '../support/cli-process.js';
import { readWire, tempStateDir } from '../support/test-proxy.js';
import { killStartedProcesses } from '../wrapper/helpers/run-wrapper.js';
import { HAS_SCRIPT, startOnTerminal } from '../wrapper/helpers/terminal.js';
import { runCli, STATE_EXAMPLE, widest } from './cli-run.js';
import { AGENT_ID, makeSessionState, type SessionState } from './session-state.js';

let session: SessionState;
let copy: string;
beforeAll(async () => {
  session = await makeSessionState();
  copy = await tempStateDir('ctxshed-status-');
  await fs.cp(STATE_EXAMPLE, copy, { recursive: true });
});
afterAll(async () => {
  killStartedProcesses();
  await fs.rm(session.dir, { recursive: true, force: true });
  await fs.rm(copy, { recursive: true, force: true });
});

type StatusJson = StatusReport & { state: string; now: string };

describe('ctxshed status', () => {
  // The example's last requests are its shed conversation's, hours after the rescue one: status
  // shows the conversations seen within 30 minutes of the last request, so the shed one alone.
  it('should show the example session as it was at its last request', async () => {
    const result = await runCli(['status', '--state', STATE_EXAMPLE], { env: { ...process.env, COLUMNS: '100' } });

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\n145a183e78ba +38\.1% \/ 70\.0% +#1 .*ago +1 +16 +69\.8 KiB +.*ago +Have a look around/);
    expect(result.stdout).toContain('145a183e78ba: shed mode: epoch #1 shed 16 messages (70.3 KiB); RESCUED counts span stubs');
    expect(result.stdout).not.toContain('cbf84ec36c85');
    expect(widest(result.stdout)).toBeLessThanOrEqual(100);
  });

  it('should give the example as JSON: fullness against the threshold, last epoch, rescued, bytes saved', async () => {
    const result = await runCli(['status', '--state', STATE_EXAMPLE, '--json']);

    const report = JSON.parse(result.stdout) as StatusJson;
    expect(report.lastRequestAt).toBe('2026-11-30T13:37:42.141Z');
    expect(report.conversations).toHaveLength(1);
    expect(report.conversations[0]).toMatchObject({
      fullness: 0.3813,
      threshold: 0.7,
      thresholdFrom: 'epoch',
      epochs: 1,
      lastEpoch: { n: 1, latchedAt: '2026-11-30T13:37:41.973Z', blocks: 0, bytes: 0, mode: 'shed', span: { messages: 16, bytes: 71_975 } },
      requests: 16,
      lastRequest: { rescued: 1, bytesSaved: 71_476, reason: null, status: 200 },
    });
    expect(report.totals).toMatchObject({
      epochs: 2,
      blocksElided: 11,
      bytesElided: 18_864,
      shed: { epochs: 1, spans: 1, messages: 16, perEpoch: [{ n: 1, bytes: 71_975 }] },
    });
  });

  it('should show both conversations of a recorded session, with the threshold it would latch at', async () => {
    const result = await runCli(['status', '--state', session.dir, '--json', '--rescue-pct', '80']);

    const report = JSON.parse(result.stdout) as StatusJson;
    const wire = await readWire(session.dir);
    const main = report.conversations.find((c) => c.agentId === null)!;
    const agent = report.conversations.find((c) => c.agentId === AGENT_ID)!;
    expect(main.thresholdFrom).toBe('epoch');
    expect(main.threshold).toBe(0.7);
    expect(main.requests).toBe(wire.filter((r) => r['key'] === main.key).length);
    expect(main.lastRequest.rescued).toBe(wire.filter((r) => r['key'] === main.key).at(-1)!['rescued']);
    expect(agent).toMatchObject({ thresholdFrom: 'default', threshold: 0.8, epochs: 0, lastEpoch: null });
  });

  it('should refuse an interval that is not above 0', async () => {
    const result = await runCli(['status', '--follow', '--interval', '0', '--state', STATE_EXAMPLE]);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--interval');
  });
});

describe('ctxshed status --follow', () => {
  it('should print a new block each interval to a pipe, pick up appended requests, and stop cleanly on Ctrl-C', async () => {
    const newKey = 'd'.repeat(64);
    let appended = false;

    const result = await runCli(['status', '--follow', '--interval', '0.2', '--state', copy], {
      stopWhen: (stdout) => {
        if (!appended && stdout.includes('145a183e78ba')) {
          appended = true;
          const record = {
            t: '2026-11-30T13:38:00.000Z',
            method: 'POST',
            path: '/v1/messages',
            route: 'messages',
            key: newKey,
            status: 200,
            bytesIn: 900,
            bytesOut: 900,
            responseBytes: 10,
            rescued: 0,
            bytesElided: 0,
            epochs: 0,
            reason: 'no_epoch',
            usage: { input: 1, cacheCreation: 0, cacheRead: 0, output: 1 },
            window: 12_000,
            fullness: 0.3,
            ms: { total: 1, prepare: 0 },
          };
          void fs.appendFile(path.join(copy, 'wire.jsonl'), `${JSON.stringify(record)}\n`);
        }
        return stdout.includes('dddddddddddd');
      },
    });

    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^ctxshed status /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(result.stdout).toMatch(/\ndddddddddddd +30\.0% \/ 55\.0%\*/);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('should print one JSON document a line with --json', async () => {
    const result = await runCli(['status', '--follow', '--json', '--interval', '0.1', '--state', STATE_EXAMPLE], {
      stopWhen: (stdout) => stdout.split('\n').length > 3,
    });

    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect((JSON.parse(line) as StatusJson).conversations).toHaveLength(1);
  });

  it.skipIf(!HAS_SCRIPT)('should redraw in place on a terminal and end with exit 0 on a real ^C', async () => {
    const run = startOnTerminal([process.execPath, CLI_PATH, 'status', '--follow', '--interval', '0.2', '--state', STATE_EXAMPLE], process.env);

    const seen = await run.waitForStdout(/(\u001b\[H\u001b\[2J[^]*){2}/);
    run.child.stdin?.write('\u0003');
    const ended = await run.done;

    expect(seen).toContain('145a183e78ba');
    expect(ended.code).toBe(0);
  });
});
