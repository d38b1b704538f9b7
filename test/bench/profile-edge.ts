/**
 * A loop of requests through the real proxy against a local upstream, to profile the request path:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/test/bench/profile-edge.js [plain|epoch] [bytes] [requests] [json|sse]
 * Conversations of about `bytes` (Claude Code-shaped, test/bench/claude-code-body.ts) grow one turn
 * a request; with `epoch` each has an epoch latched first, so every request is rewritten. Prints
 * the median time a request took, in ms; the profile is the point.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { engineSettingsOf } from '../../src/rescue/index.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../src/proxy/transport-settings.js';
import { startProxy } from '../../src/proxy/start-proxy.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { quantile } from './measure.js';
import { GrowingConversation, latchFor, post, startUpstream } from './proxy-bench.js';

const [mode = 'plain', bytesArg = '300000', countArg = '400', kind = 'json'] = process.argv.slice(2);
if (!['plain', 'epoch'].includes(mode) || !['json', 'sse'].includes(kind) || !(Number(bytesArg) > 0) || !(Number(countArg) > 0)) {
  console.error('usage: profile-edge.js [plain|epoch] [bytes] [requests] [json|sse]');
  process.exit(2);
}
const upstream = await startUpstream();
const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-profile-'));
const state = await openStateDir(stateDir);
const transport = {
  upstream: new URL(`http://127.0.0.1:${upstream.port}`),
  maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
  timeouts: { headersMs: 60_000, idleMs: 60_000 },
};
const proxy = await startProxy({ transport, engine: engineSettingsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024 }) }, state, 0);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const conversations = Array.from({ length: 8 }, (_, i) => new GrowingConversation(Number(bytesArg), 500 + i));
if (mode === 'epoch') for (const c of conversations) await latchFor(state, c.first);
// The bodies are made first, so their making stays out of the profile's request loop.
const bodies = Array.from({ length: Number(countArg) }, (_, i) => {
  const body = conversations[i % conversations.length]!.next();
  return kind === 'sse' ? body : Buffer.from(body.toString('utf8').replace(/"stream":true}$/, '"stream":false}'));
});
const times: number[] = [];
for (const body of bodies) times.push((await post(agent, proxy.port, body)).lastByte);
console.log(
  `${mode} ${kind} ${bytesArg} B x ${countArg}: median ${quantile(
    times.slice(conversations.length).sort((a, b) => a - b),
    0.5,
  ).toFixed(2)} ms a request`,
);
agent.destroy();
await proxy.close();
upstream.server.close();
if (process.env['KEEP_STATE'] === undefined) await fs.rm(stateDir, { recursive: true, force: true });
else console.log(stateDir);
