// How many functions of src/ one rewritten Messages request runs through the real proxy (V8
// precise coverage with call counts), by folder. The issue-19 figure "stops one request makes".
// Usage, after `npx tsc -p tsconfig.json`: node test/bench/request-stops.mjs dist
import inspector from 'node:inspector/promises';
import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
const dist = path.resolve(process.argv[2]);
const session = new inspector.Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const { startProxy } = await import(`${dist}/src/proxy/start-proxy.js`);
const { startMessagesApi } = await import(`${dist}/src/scripted/messages-api.js`);
const { openStateDir } = await import(`${dist}/src/state/open-state-dir.js`);
const { ScriptedClient } = await import(`${dist}/src/scripted/client.js`);
const api = await startMessagesApi({});
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stops-'));
const settings = {
  transport: { upstream: new URL(api.url), maxRequestBytes: 32 * 1024 * 1024, timeouts: { headersMs: 10000, idleMs: 10000 } },
  engine: { threshold: 0.7, policy: { keepRecent: 6, minBytes: 1024 }, window: 20000 },
};
const proxy = await startProxy(settings, await openStateDir(dir), 0, { wireFlushDelayMs: 0, watchRecords: false });
const c = new ScriptedClient('http://127.0.0.1:9');
for (let i = 0; i < 20; i++) {
  const id = `toolu_${String(i).padStart(4, '0')}`;
  const text = Array.from({ length: 100 }, (_, j) => `line ${j} of file ${i}: some code here\n`)
    .join('')
    .slice(0, 4000);
  c.messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/f${i}.ts` } }] });
  c.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] });
}
const body = c.body();
const send = () =>
  new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: proxy.port,
        method: 'POST',
        path: '/v1/messages?beta=true',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const wire = async (n) => {
  for (;;) {
    const t = await fs.readFile(path.join(dir, 'wire.jsonl'), 'utf8').catch(() => '');
    const l = t.split('\n').filter(Boolean);
    if (l.length >= n) return l.map((x) => JSON.parse(x));
    await new Promise((r) => setTimeout(r, 5));
  }
};
await send();
await wire(1);
await send();
await wire(2); // no epoch, then the latch
await session.post('Profiler.takePreciseCoverage'); // resets the counters
await send();
const records = await wire(3);
const { result } = await session.post('Profiler.takePreciseCoverage');
const rec = records[2];
console.log(`request 3: status ${rec.status}, rescued ${rec.rescued}, epochs ${rec.epochs}, bytesIn ${rec.bytesIn} -> bytesOut ${rec.bytesOut}`);
const byFolder = new Map();
const proxyFns = [];
for (const script of result) {
  if (!script.url.startsWith(`file://${dist}/src/`)) continue;
  const rel = script.url.slice(`file://${dist}/src/`.length);
  if (rel.startsWith('scripted/')) continue; // the stand-in client and upstream
  for (const fn of script.functions) {
    if (fn.functionName === '' && fn.ranges[0].startOffset === 0) continue; // module scope
    if (fn.ranges[0].count === 0) continue;
    const folder = rel.split('/')[0];
    const e = byFolder.get(folder) ?? { fns: 0, files: new Set() };
    e.fns++;
    e.files.add(rel);
    byFolder.set(folder, e);
    if (folder === 'proxy') proxyFns.push(`${rel} ${fn.functionName || '(anonymous)'} x${fn.ranges[0].count}`);
  }
}
let fns = 0;
let files = 0;
for (const [f, e] of [...byFolder].sort()) {
  console.log(`${f}: ${e.fns} functions in ${e.files.size} files`);
  fns += e.fns;
  files += e.files.size;
}
console.log(`all src (less scripted): ${fns} functions in ${files} files`);
console.log('src/proxy functions run:');
for (const l of proxyFns.sort()) console.log(`  ${l}`);
await proxy.close();
await api.close();
