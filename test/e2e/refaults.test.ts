/**
 * Refaults end to end: a scripted model reads an elided file back through the client, and the
 * proxy counts that one read once, however often the client sends the request that carries it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/scripted/client.js';
import { toolUse } from '../../src/scripted/message.js';
import { startTestApi } from '../support/scripted-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { runCli } from '../cli/cli-run.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The elided file a stub in the body names, if any. */
function elidedFileIn(body: Buffer): string | undefined {
  // Any stub's wording (a v2 stub, a v3 pointer or drop): each names its file's absolute path.
  return /(\/[^\s"\\]*\/elided\/[0-9a-f]{64}\.txt)/.exec(body.toString('utf8'))?.[1];
}

describe('refaults through the proxy', () => {
  it('should count the model reading an elided file back once, and show it in ls, show and stats', async () => {
    const dir = await tempStateDir();
    let readBack: string | undefined;
    // The first time the model sees a stub it asks for that file; else it reads the next source file.
    const api = await startTestApi({
      respond: (req) => {
        if (!isMessagesRequest(req)) return undefined;
        const stubbed = readBack === undefined ? elidedFileIn(req.body) : undefined;
        if (stubbed !== undefined) readBack = stubbed;
        return { kind: 'message', content: [toolUse('Read', { file_path: stubbed ?? `/src/file-${req.index}.ts` })], outputTokens: 20 };
      },
    });
    const proxy = await startTestProxy(dir, testConfig(api.url));
    const client = new ScriptedClient(proxy.url);
    cleanups.push(
      () => api.close(),
      () => proxy.close(),
      () => client.close(),
    );

    let turns = 0;
    while (readBack === undefined && turns < 40) {
      await client.turnOnce();
      turns += 1;
    }
    expect(readBack).toBeDefined();
    // The client answered the read-back: its next request carries the call. Sent twice (a retry),
    // then the session goes on.
    await client.send();
    for (let i = 0; i < 4; i++) await client.turnOnce();

    const wire = await waitForWire(dir, turns + 5);
    const counted = wire.filter((r) => r['refaults'] !== undefined);
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({ refaults: 1, refaulted: [{ epoch: 1, via: 'read' }] });
    const ls = JSON.parse((await runCli(['ls', '--state', dir, '--json'])).stdout) as { conversations: Array<Record<string, unknown>> };
    expect(ls.conversations[0]).toMatchObject({ refaults: 1, blocksRefaulted: 1 });
    expect(Number(ls.conversations[0]!['refaultRate'])).toBeCloseTo(1 / Number(ls.conversations[0]!['blocksElided']), 4);
    const key = String(ls.conversations[0]!['key']);
    const show = await runCli(['show', key.slice(0, 12), '--state', dir]);
    expect(show.stdout).toMatch(/\n {2}refaults {2}1 of \d+ blocks read back \(\d+\.\d%\), 1 read\n/);
    const stats = JSON.parse((await runCli(['stats', '--state', dir, '--json'])).stdout) as { overall: Record<string, unknown> };
    expect(stats.overall).toMatchObject({ refaults: 1, blocksRefaulted: 1 });
  });
});
