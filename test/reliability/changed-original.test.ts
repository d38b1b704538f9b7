/**
 * Issue 41 item 5, as the probe did it: text appended to an elided original, then the session
 * resumed under a new proxy. The stub no longer names that original (the block goes in full), the
 * wire log gets one `original_changed` note, the person's line goes to the proxy's log, and
 * `status` counts it.
 */
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { buildStatusReport } from '../../src/report/status-report.js';
import { summarizeConversations } from '../../src/report/conversation-summary.js';
import { addWireEntry, newWireTally } from '../../src/report/wire-tally.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { elidedPath } from '../../src/state/layout.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { listConversations } from '../../src/state/read-conversation.js';
import type { WireNote } from '../../src/state/wire-record.js';
import { readWire, startTestProxy, tempStateDir, testConfig } from '../support/test-proxy.js';
import { blocksOf } from '../../src/core/epoch-items.js';

describe('an original changed by hand between two proxies', () => {
  it('should not be named by any stub the next proxy sends, and be said once in the wire log and status', async () => {
    const dir = await tempStateDir('ctxshed-changed-original-');
    const upstream = await startMessagesApi();
    const first = await startTestProxy(dir, testConfig(upstream.url));
    const client = new ScriptedClient(first.url);
    const lines: string[] = [];
    try {
      for (let i = 0; i < 20 && (await listConversations(await openStateDir(dir))).every((r) => r.epochs.length === 0); i++) await client.turnOnce();
      await first.close();
      const state = await openStateDir(dir);
      const [record] = await listConversations(state);
      const sha = blocksOf(record!.epochs[0]!)[0]!.sha256;
      await fs.appendFile(elidedPath(state, sha, 'txt'), 'appended by hand\n');
      const seenBefore = upstream.requests.length;

      const second = await startProxy(testConfig(upstream.url), state, first.port, { log: (line) => lines.push(line) });
      try {
        for (let i = 0; i < 3; i++) expect((await client.turnOnce()).status).toBe(200);
      } finally {
        await second.close();
      }

      const after = upstream.requests.slice(seenBefore).filter(isMessagesRequest);
      const notes = (await readWire(dir)).filter((r) => r['note'] === 'original_changed');
      const tally = newWireTally();
      for (const note of notes) addWireEntry(tally, { kind: 'note', note: note as unknown as WireNote });
      const status = buildStatusReport(tally, summarizeConversations(tally, []), { recentMs: 60_000, thresholds: { threshold: 0.7 } });
      expect(after).toHaveLength(3);
      for (const request of after) expect(request.body.toString('utf8')).not.toContain(sha);
      expect(notes).toEqual([
        { t: expect.any(String), note: 'original_changed', detail: expect.stringMatching(new RegExp(`^original_size: elided/${sha}\\.txt holds `)) },
      ]);
      expect(lines.filter((l) => l.includes('not what its name says'))).toHaveLength(1);
      expect(status.originalsChanged).toMatchObject({ count: 1 });
    } finally {
      client.close();
      await first.close();
      await upstream.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
