/**
 * Text that looks like what Claude Code's tools and model produce: prose, `Read` output of code
 * files, command output, ids and signatures. Sprinkled with the non-ASCII real sessions carry
 * (`→` on every Read line, typographic punctuation, accents, CJK, emoji) and with the quotes,
 * backslashes and tabs that need JSON escapes.
 */
import type { SeededRandom } from './seeded-random.js';

const WORDS = (
  'the a to of and in is that for it this with as be on not are by file test function we should ' +
  'request body proxy cache token context window message result tool block read write change value ' +
  'error check build run output type string array object key order byte offset stream response ' +
  'first last next before after because which would could then now also only each every other ' +
  'config state directory path module import export return async await promise handler server'
).split(' ');
const RARE_WORDS = ['café', 'naïve', 'déjà vu', 'Zürich', 'façade', '日本語', 'Привет', '—', '“quoted”', '…', 'señal', '✓', '🙂'];

/** English-like prose of about `bytes` UTF-8 bytes. */
export function prose(r: SeededRandom, bytes: number): string {
  const sentences: string[] = [];
  let size = 0;
  while (size < bytes) {
    const words: string[] = [];
    const n = r.int(6, 22);
    for (let i = 0; i < n; i++) words.push(r.chance(0.015) ? r.pick(RARE_WORDS) : r.pick(WORDS));
    const first = words[0] ?? 'so';
    const sentence = `${first.charAt(0).toUpperCase()}${first.slice(1)} ${words.slice(1).join(' ')}${r.pick(['.', '.', '.', '?', ':'])}`;
    sentences.push(sentence);
    size += Buffer.byteLength(sentence) + 1;
    if (r.chance(0.12)) sentences.push('\n\n');
  }
  return sentences.join(' ').replace(/ \n\n /g, '\n\n');
}

const CODE_LINES = [
  "import { ${id} } from './${id}.js';",
  'export function ${id}(body: Uint8Array, index: number): number {',
  '  const ${id} = body.subarray(${n}, ${n});',
  '  if (${id} === undefined) return -1;',
  '  for (let i = 0; i < ${id}.length; i++) ${id}[i] = ${n};',
  '  throw new Error(`${id}: unexpected byte at ${n}`);',
  '  // Keep the cache breakpoint where the client put it (see the “Shared prefix” invariant).',
  "  const path = 'C:\\\\Users\\\\dev\\\\${id}.ts';",
  '  return { kind: "${id}", offset: ${n}, text: "${id}\\t${id}" };',
  '}',
  '',
  '\t// tabs, not spaces, in this vendored file',
  '  /** Résumé of the ${id} step — naïve but fast. */',
  "  log.info('✓ ${id} done in ${n} ms');",
  '  const label = "日本語のラベル ${id}";',
  '  expect(${id}(${n})).toBe(${n});',
  "describe('${id}', () => {",
];
const IDENTIFIERS = ['scanValue', 'readUsage', 'planEpoch', 'applySplices', 'body', 'offset', 'decoder', 'handler', 'frozen', 'latch', 'wireLog', 'stub'];

function fill(r: SeededRandom, template: string): string {
  return template.replace(/\$\{id\}/g, () => r.pick(IDENTIFIERS)).replace(/\$\{n\}/g, () => String(r.int(0, 4096)));
}

/**
 * What `Read` returns for a code file of about `bytes` bytes: `<n>\t<line>` per line, as 2.1.197
 * writes it (older clients wrote `     1→line`; test/fixtures/real/README.md).
 */
export function readOutput(r: SeededRandom, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const line = `${n}\t${fill(r, r.pick(CODE_LINES))}`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

const OUTPUT_LINES = [
  ' ✓ test/core/${id}.test.ts (${n} tests) ${n}ms',
  ' × test/proxy/${id}.test.ts > should ${id} > fails',
  '   → expected "${id}" to be "${id}"',
  '-rw-r--r--  1 dev dev  ${n} Nov 30 04:${n} ${id}.ts',
  'commit ${hex}',
  'Author: Dévelopeur <dev@example.com>',
  'src/core/${id}.ts:${n}:  const ${id} = "${id}";',
  '    at ${id} (file:///work/main/dist/src/core/${id}.js:${n}:${n})',
  'npm warn deprecated ${id}@${n}.0.0: use \\"${id}\\" instead',
  '{"level":"info","msg":"${id}","bytes":${n}}',
  '\tmodified:   src/${id}.ts',
  'Download progress: ${n}% ▕████████▏',
  '',
];

/** What `Bash` returns for a command: test runs, listings, logs, of about `bytes` bytes. */
export function commandOutput(r: SeededRandom, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = fill(r, r.pick(OUTPUT_LINES)).replace('${hex}', () => hex(r, 40));
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE62 = BASE64.slice(0, 62);

/** A base64 string of `chars` characters (thinking signatures). */
export function base64(r: SeededRandom, chars: number): string {
  let s = '';
  for (let i = 0; i < chars; i++) s += BASE64.charAt(r.int(0, 63));
  return s;
}

/** Lowercase hex of `chars` characters. */
export function hex(r: SeededRandom, chars: number): string {
  let s = '';
  for (let i = 0; i < chars; i++) s += '0123456789abcdef'.charAt(r.int(0, 15));
  return s;
}

/** A tool_use id like the API's (`toolu_01` and 22 base62 characters). */
export function toolUseId(r: SeededRandom): string {
  let s = 'toolu_01';
  for (let i = 0; i < 22; i++) s += BASE62.charAt(r.int(0, 61));
  return s;
}
