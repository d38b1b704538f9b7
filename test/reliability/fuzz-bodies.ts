/**
 * The request-body fuzzer shared by test/reliability/fuzz.test.ts (a bounded run) and
 * test/bench/fuzz-long.ts (a long one): seeded generators of bad and odd bodies, and a driver
 * that sends each to a running `ctxshed serve` and checks what the upstream received.
 *
 * Oracle (docs/design.md invariants 1, 5, 6, 7): the upstream received either the exact bytes sent,
 * or bytes that index as a Messages body and inflate (from the state directory) to the bytes sent.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { PASSTHROUGH_REASONS } from '../../src/core/passthrough-reasons.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { seededRandom, type SeededRandom } from '../bench/seeded-random.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The kinds of body the fuzzer makes; the counts in docs/reliability.md are per kind. */
export const FUZZ_KINDS = [
  'random_bytes',
  'truncated',
  'byte_mutated',
  'deep_nesting',
  'huge_string',
  'invalid_utf8',
  'duplicate_key',
  'wrong_type',
  'orphan_tool_result',
  'shape_after_epoch',
  'resent_rewrite',
  'odd_json',
  'real_body',
] as const;
export type FuzzKind = (typeof FUZZ_KINDS)[number];

/** One generated request. */
export interface FuzzCase {
  readonly kind: FuzzKind;
  readonly path: string;
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

/** The bodies to mutate: a real session's transcripts (oldest first) and rewritten bodies seen. */
export interface FuzzCorpus {
  readonly bodies: readonly Buffer[];
  readonly rewritten: Buffer[];
}

/** Makes the next case from `rng`. */
export function makeCase(rng: SeededRandom, corpus: FuzzCorpus): FuzzCase {
  const kind = rng.pick(FUZZ_KINDS);
  const base = rng.chance(0.7) ? corpus.bodies.at(-1 - rng.int(0, Math.min(3, corpus.bodies.length - 1)))! : rng.pick(corpus.bodies);
  const path = rng.chance(0.1) ? '/v1/messages/count_tokens?beta=true' : '/v1/messages?beta=true';
  const headers: Record<string, string> = { 'x-api-key': 'sk-ant-fuzz', 'anthropic-version': '2023-06-01' };
  if (rng.chance(0.03)) headers['content-encoding'] = 'gzip';
  if (rng.chance(0.05)) headers['x-claude-code-agent-id'] = `agent-${rng.int(0, 3)}`;
  return { kind, path, body: generate(kind, rng, base, corpus), headers };
}

function generate(kind: FuzzKind, rng: SeededRandom, base: Buffer, corpus: FuzzCorpus): Buffer {
  switch (kind) {
    case 'random_bytes':
      return randomBytes(rng, rng.logInt(1, 65_536));
    case 'truncated':
      return base.subarray(0, rng.int(0, base.length - 1));
    case 'byte_mutated':
      return byteMutate(rng, base);
    case 'deep_nesting':
      return deepNesting(rng);
    case 'huge_string':
      return hugeString(rng, base);
    case 'invalid_utf8':
      return invalidUtf8(rng, base);
    case 'duplicate_key':
      return duplicateKey(rng, base);
    case 'wrong_type':
      return jsonEdit(base, (doc) => wrongType(rng, doc));
    case 'orphan_tool_result':
      return jsonEdit(base, (doc) => orphan(rng, doc));
    case 'shape_after_epoch':
      return jsonEdit(base, (doc) => reshape(rng, doc));
    case 'resent_rewrite':
      return corpus.rewritten.length === 0 ? base : rng.pick(corpus.rewritten);
    case 'odd_json':
      return Buffer.from(rng.pick(ODD_JSON), 'utf8');
    case 'real_body':
      return rng.pick(corpus.bodies);
  }
}

const ODD_JSON = [
  '',
  ' ',
  'null',
  '[]',
  '"x"',
  '0',
  '{}',
  '{"messages":null}',
  '{"messages":{}}',
  '{"messages":[]}',
  '{"messages":[null]}',
  '{"messages":[{}]}',
  '{"messages":[{"role":"user"}]}',
  '{"messages":[{"role":"user","content":null}]}',
  '{"messages":[{"role":"user","content":[]}]}',
  '{"messages":[{"role":"user","content":[{}]}]}',
  '{"messages":[{"role":"user","content":[{"type":"tool_result"}]}]}',
  '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":7,"content":"x"}]}]}',
  '{"messages":[{"role":"user","content":"a"}],"messages":[]}',
  '\uFEFF{"messages":[]}',
  '{"messages":[{"role":"user","content":"\\ud800"}]}',
  '{"messages":[{"role":"user","content":"a"}]} trailing',
  '{"messages":[{"role":"user","content":"a"}]}\n\n',
];

function randomBytes(rng: SeededRandom, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(0, 255);
  return out;
}

const STRUCTURAL = Buffer.from('{}[],:"\\ 0123456789tfn-eE.u');

function byteMutate(rng: SeededRandom, base: Buffer): Buffer {
  let b = Buffer.from(base);
  for (let k = rng.int(1, 8); k > 0; k--) {
    const at = rng.int(0, Math.max(0, b.length - 1));
    const op = rng.int(0, 3);
    if (op === 0 && b.length > 0) b[at] = rng.int(0, 255);
    else if (op === 1) b = Buffer.concat([b.subarray(0, at), Buffer.from([rng.int(0, 255)]), b.subarray(at)]);
    else if (op === 2) b = Buffer.concat([b.subarray(0, at), b.subarray(at + rng.int(1, 16))]);
    else if (b.length > 0) b[at] = STRUCTURAL[rng.int(0, STRUCTURAL.length - 1)]!;
  }
  return b;
}

function deepNesting(rng: SeededRandom): Buffer {
  const depth = rng.logInt(10, 200_000);
  const open = rng.pick(['[', '{"a":', '[{"type":"text","text":"x","z":']);
  const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
  const closed = rng.chance(0.8);
  const inner = `${open.repeat(depth)}0${closed ? close.repeat(depth) : ''}`;
  const where = rng.int(0, 2);
  const text =
    where === 0
      ? inner
      : where === 1
        ? `{"model":"m","messages":[{"role":"user","content":${inner}}]}`
        : `{"model":"m","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}],"metadata":${inner}}`;
  return Buffer.from(text, 'utf8');
}

function hugeString(rng: SeededRandom, base: Buffer): Buffer {
  const size = rng.logInt(65_536, 4 * 1024 * 1024);
  const unit = rng.pick(['a', 'é', '✓', '😀', '\\n', '\\u0000', '\\ud800', '\\"']);
  const huge = unit.repeat(Math.ceil(size / Buffer.byteLength(unit)));
  const text = base.toString('utf8');
  // Replace one tool_result's string content (raw JSON text, so escapes stay as written).
  const marks = [...text.matchAll(/"content":"/g)].map((m) => m.index);
  if (marks.length === 0 || rng.chance(0.2)) return Buffer.from(`{"model":"m","messages":[{"role":"user","content":"${huge}"}]}`, 'utf8');
  const at = rng.pick(marks) + '"content":"'.length;
  return Buffer.from(`${text.slice(0, at)}${huge}${text.slice(at)}`, 'utf8');
}

const BAD_UTF8 = [[0xff], [0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];

function invalidUtf8(rng: SeededRandom, base: Buffer): Buffer {
  let b = base;
  for (let k = rng.int(1, 4); k > 0; k--) {
    // Mostly inside strings: right after an opening quote of a value.
    const quote = b.indexOf('":"', rng.int(0, b.length - 1));
    const at = quote >= 0 && rng.chance(0.8) ? quote + 3 : rng.int(0, b.length);
    b = Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick(BAD_UTF8)), b.subarray(at)]);
  }
  return b;
}

const DUPLICATES = ['"messages":[],', '"role":"user",', '"content":"x",', '"type":"text",', '"tool_use_id":"toolu_x",', '"content":[],', '"model":"m",'];

function duplicateKey(rng: SeededRandom, base: Buffer): Buffer {
  const text = base.toString('utf8');
  const opens = [...text.matchAll(/\{"/g)].map((m) => m.index);
  const at = opens.length === 0 ? 0 : rng.pick(opens) + 1;
  return Buffer.from(`${text.slice(0, at)}${rng.pick(DUPLICATES)}${text.slice(at)}`, 'utf8');
}

function jsonEdit(base: Buffer, edit: (doc: Json) => Json): Buffer {
  const doc = JSON.parse(base.toString('utf8')) as Json;
  return Buffer.from(JSON.stringify(edit(doc)), 'utf8');
}

function nodes(doc: Json, out: Array<{ parent: Json[] | { [k: string]: Json }; key: string | number }> = []): typeof out {
  if (Array.isArray(doc))
    for (const [i, v] of doc.entries()) {
      out.push({ parent: doc, key: i });
      nodes(v, out);
    }
  else if (doc !== null && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) out.push({ parent: doc, key: k }), nodes(v, out);
  return out;
}

const WRONG: Json[] = [{}, [], 0, null, 's', true, [[]], { type: 'tool_result' }, [{ type: 'text' }], { messages: [] }];

function wrongType(rng: SeededRandom, doc: Json): Json {
  const all = nodes(doc);
  for (let k = rng.int(1, 3); k > 0 && all.length > 0; k--) {
    const { parent, key } = rng.pick(all);
    (parent as Record<string | number, Json>)[key] = structuredClone(rng.pick(WRONG));
  }
  return doc;
}

function messagesOf(doc: Json): Array<{ role?: Json; content?: Json } & { [k: string]: Json }> {
  const m = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? doc['messages'] : undefined;
  return Array.isArray(m) ? (m.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as Array<{ [k: string]: Json }>) : [];
}

function blocksOf(message: { [k: string]: Json }): Array<{ [k: string]: Json }> {
  const c = message['content'];
  return Array.isArray(c) ? (c.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as Array<{ [k: string]: Json }>) : [];
}

function orphan(rng: SeededRandom, doc: Json): Json {
  const messages = messagesOf(doc);
  const assistants = messages.filter((m) => m['role'] === 'assistant');
  if (assistants.length > 0 && rng.chance(0.5)) {
    const a = rng.pick(assistants);
    a['content'] = blocksOf(a).filter((b) => b['type'] !== 'tool_use');
    if ((a['content'] as Json[]).length === 0) a['content'] = [{ type: 'text', text: 'no tool' }];
  } else {
    const results = messages.flatMap(blocksOf).filter((b) => b['type'] === 'tool_result');
    if (results.length > 0) rng.pick(results)['tool_use_id'] = `toolu_orphan_${rng.int(0, 1e6)}`;
  }
  return doc;
}

function reshape(rng: SeededRandom, doc: Json): Json {
  const messages = messagesOf(doc);
  const all = doc as { [k: string]: Json };
  const results = messages.flatMap(blocksOf).filter((b) => b['type'] === 'tool_result');
  const op = rng.int(0, 9);
  if (op === 0 && messages.length > 3) {
    const at = rng.int(1, messages.length - 2); // drop a pair: rewound or compacted
    (all['messages'] as Json[]).splice(at, 2);
  } else if (op === 1 && messages.length > 3) {
    const m = all['messages'] as Json[];
    const i = rng.int(1, m.length - 1);
    const j = rng.int(1, m.length - 1);
    [m[i], m[j]] = [m[j]!, m[i]!];
  } else if (op === 2 && results.length > 0) {
    const r = rng.pick(results);
    if (typeof r['content'] === 'string') r['content'] = `${r['content']}!`; // hash no longer matches
  } else if (op === 3 && results.length > 0) {
    const r = rng.pick(results);
    if (typeof r['content'] === 'string') r['content'] = [{ type: 'text', text: r['content'] }];
  } else if (op === 4 && results.length > 0) {
    rng.pick(results)['cache_control'] = { type: 'ephemeral' };
  } else if (op === 5 && messages[0] !== undefined) {
    messages[0]['content'] = `another conversation ${rng.int(0, 1e9)}`;
  } else if (op === 6 && results.length > 0) {
    rng.pick(results)['is_error'] = true;
  } else if (op === 7 && results.length > 0) {
    const r = rng.pick(results);
    r['content'] = [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: String(r['content']) },
    ];
  } else if (op === 8) {
    (all['messages'] as Json[]).push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_late', content: 'late '.repeat(400) }] });
  } else {
    all['system'] = 'changed system';
    all['thinking'] = { type: 'enabled', budget_tokens: 1024 };
  }
  return doc;
}

/** What a run found; `failures` holds the first few cases that broke the oracle. */
export interface FuzzTally {
  sent: number;
  identical: number;
  rewritten: number;
  byKind: Record<string, number>;
  statuses: Record<string, number>;
  failures: Array<{ kind: FuzzKind; why: string; file?: string }>;
}

/** POSTs with a deadline: a hang is a failure, not a stuck test. */
export function post(
  url: string,
  target: string,
  body: Buffer,
  headers: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(target, url),
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends `count` cases one at a time through the proxy at `proxyUrl`; `received()` returns the
 * bodies the upstream got since the last call. Failing cases are saved under `saveDir` if given.
 */
export async function runFuzz(opts: {
  proxyUrl: string;
  stateDir: string;
  corpus: FuzzCorpus;
  count: number;
  seed: number;
  received: () => Buffer[];
  saveDir?: string;
  onProgress?: (tally: FuzzTally) => void;
}): Promise<FuzzTally> {
  const rng = seededRandom(opts.seed);
  const state = layoutPaths(opts.stateDir);
  const tally: FuzzTally = { sent: 0, identical: 0, rewritten: 0, byKind: {}, statuses: {}, failures: [] };
  const fail = async (c: FuzzCase, why: string): Promise<void> => {
    if (tally.failures.length >= 20) return;
    let file: string | undefined;
    if (opts.saveDir !== undefined) {
      file = path.join(opts.saveDir, `case-${tally.sent}-${c.kind}.bin`);
      await fs.writeFile(file, c.body);
    }
    tally.failures.push({ kind: c.kind, why, ...(file === undefined ? {} : { file }) });
  };
  for (let i = 0; i < opts.count; i++) {
    if (i % 1000 === 999) opts.onProgress?.(tally);
    const c = makeCase(rng, opts.corpus);
    tally.sent++;
    tally.byKind[c.kind] = (tally.byKind[c.kind] ?? 0) + 1;
    let status: number;
    try {
      status = (await post(opts.proxyUrl, c.path, c.body, c.headers)).status;
    } catch (error) {
      await fail(c, `request failed: ${String(error)}`);
      continue;
    }
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
    const got = opts.received();
    const up = got[0];
    if (got.length !== 1 || up === undefined) {
      await fail(c, `upstream received ${got.length} requests`);
      continue;
    }
    if (up.equals(c.body)) {
      tally.identical++;
      continue;
    }
    if (indexTranscript(up).kind !== 'indexed') {
      await fail(c, 'a changed body that does not index');
      continue;
    }
    try {
      const inflated = await inflateFromState(state, up);
      // A body that already carried stubs (a rewrite sent again) is compared inflated, too.
      const original = c.kind === 'resent_rewrite' ? Buffer.from((await inflateFromState(state, c.body)).body) : c.body;
      if (!Buffer.from(inflated.body).equals(original)) throw new Error(`inflates to other bytes (${inflated.stubs} stubs)`);
    } catch (error) {
      await fail(c, `not a valid rewrite: ${String(error)}`);
      continue;
    }
    tally.rewritten++;
    if (opts.corpus.rewritten.length < 50) opts.corpus.rewritten.push(up);
  }
  return tally;
}

/** Problems with the wire log: every pass-through carries a reason from the closed list. */
export async function checkWireReasons(stateDir: string): Promise<{ records: number; reasons: Record<string, number>; problems: string[] }> {
  const text = await fs.readFile(path.join(stateDir, 'wire.jsonl'), 'utf8');
  const reasons: Record<string, number> = {};
  const problems: string[] = [];
  let records = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r['note'] === 'string') continue;
    records++;
    const rescued = r['rescued'];
    const reason = r['reason'];
    if (typeof rescued === 'number' && rescued > 0) {
      reasons['(rewritten)'] = (reasons['(rewritten)'] ?? 0) + 1;
    } else if (typeof reason === 'string' && Object.hasOwn(PASSTHROUGH_REASONS, reason)) {
      reasons[reason] = (reasons[reason] ?? 0) + 1;
    } else if (problems.length < 10) {
      problems.push(`record without a listed reason: ${line.slice(0, 300)}`);
    }
  }
  return { records, reasons, problems };
}

/**
 * POSTs `total` bytes of spaces (with content-length, or chunked), a megabyte at a time, and stops
 * sending as soon as the proxy answers; an error after the answer (the proxy hung up) is expected.
 */
export function postOversized(
  url: string,
  total: number,
  chunked: boolean,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const length: Record<string, string> = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) };
    const req = http.request(
      new URL('/v1/messages', url),
      { method: 'POST', headers: { 'content-type': 'application/json', ...length, ...headers } },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), sentBytes }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), sentBytes }));
      },
    );
    req.on('error', (e) => (answered ? undefined : reject(e)));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = (): void => {
      while (!answered && sentBytes < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - sentBytes));
        sentBytes += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}
