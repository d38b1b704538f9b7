/**
 * The repository stands alone: no file points to a document outside it, and every pointer into
 * docs/design.md or docs/style.md names a section that exists (docs/style.md "Comments").
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOP = ['README.md', 'package.json', 'tsconfig.json', '.ci', 'docs', 'src', 'test', 'properties', 'state.example'];
// Spelled in pieces, so this file does not find itself.
const OUTSIDE: readonly RegExp[] = [
  new RegExp(`\\b${'DESIGN'}\\.md\\b`),
  new RegExp(`\\b${'STYLE'}\\.md\\b`),
  new RegExp(`${'REAL'}-CLIENT\\.md`),
  new RegExp(`\\.\\./${'shared'}\\b`),
  new RegExp(`/work/${'shared'}\\b`),
];

async function filesUnder(entry: string): Promise<string[]> {
  const full = path.join(ROOT, entry);
  const stat = await fs.stat(full).catch(() => undefined);
  if (stat === undefined) return [];
  if (stat.isFile()) return [entry];
  const names = await fs.readdir(full, { recursive: true, withFileTypes: true });
  // Installed packages are not the repository's (test/clients installs the real clients there).
  return names
    .filter((d) => d.isFile())
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)))
    .filter((f) => !f.split(path.sep).includes('node_modules'));
}

async function repositoryText(): Promise<Map<string, string>> {
  const files = (await Promise.all(TOP.map(filesUnder))).flat();
  return new Map(await Promise.all(files.map(async (f) => [f, await fs.readFile(path.join(ROOT, f), 'utf8')] as const)));
}

/** The `##` and `###` headings of a doc, without an `Invariant N:` prefix's number kept apart. */
async function headingsOf(doc: string): Promise<Set<string>> {
  const text = await fs.readFile(path.join(ROOT, doc), 'utf8');
  return new Set([...text.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!));
}

/** Every line of `text` that points outside the repository. */
function outsidePointers(text: string): string[] {
  return text.split('\n').filter((line) => OUTSIDE.some((pattern) => pattern.test(line)));
}

describe('the repository', () => {
  it('should point to no document outside it', async () => {
    const files = await repositoryText();

    const found = [...files].flatMap(([file, text]) => outsidePointers(text).map((line) => `${file}: ${line.trim()}`));

    expect(files.size).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('should name only sections that exist when it points into docs/design.md or docs/style.md', async () => {
    const files = await repositoryText();
    const headings = { design: await headingsOf('docs/design.md'), style: await headingsOf('docs/style.md') };
    const invariants = [...headings.design].flatMap((h) => /^Invariant (\d+):/.exec(h)?.[1] ?? []);

    const broken: string[] = [];
    let pointers = 0;
    for (const [file, text] of files) {
      for (const m of text.matchAll(/docs\/(design|style)\.md(?:'s)? "([^"]+)"/g)) {
        pointers += 1;
        if (!headings[m[1] as 'design' | 'style'].has(m[2]!)) broken.push(`${file}: ${m[0]}`);
      }
      for (const m of text.matchAll(/docs\/design\.md,? invariants? ([\d, and]*\d)/g)) {
        for (const n of m[1]!.match(/\d+/g)!) if (!invariants.includes(n)) broken.push(`${file}: ${m[0]}`);
      }
    }

    expect(pointers).toBeGreaterThan(20);
    expect(invariants).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(broken).toEqual([]);
  });
});

describe('outsidePointers', () => {
  it('should find each kind of pointer outside the repository, and nothing in a plain line', () => {
    const [design, style, real, shared] = ['DESIGN', 'STYLE', 'REAL', 'shared'];
    const lines = [
      `see ${design}.md "Fullness"`,
      `${style}.md, "Tests"`,
      `${shared}/${real}-CLIENT.md`,
      `cd ../${shared}/transcripts`,
      `in /work/${shared}/x`,
      'docs/design.md "Fullness"',
    ];

    expect(outsidePointers(lines.join('\n'))).toEqual(lines.slice(0, 5));
  });
});
