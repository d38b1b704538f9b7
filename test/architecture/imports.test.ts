import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './source-files.js';
import { ALLOWED_IMPORTS, checkImports, findCycles, importsOf } from './import-rules.js';

describe('the imports of src/', () => {
  it('should keep every layering rule and have no import cycle', async () => {
    const files = await sourceFiles('src');

    const violations = checkImports(files);

    expect(files.size).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });

  it('should have a rule for every folder of src/, and none for a folder that is gone', async () => {
    const folders = (await fs.readdir(path.join(ROOT, 'src'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);

    expect(Object.keys(ALLOWED_IMPORTS).sort()).toEqual(folders.sort());
  });
});

describe('importsOf', () => {
  it('should find value, type-only, re-export, side-effect and dynamic imports, and skip comments', () => {
    const source = [
      "import fs from 'node:fs';",
      "import type { A } from './a.js';",
      "import {\n  b,\n  type C,\n} from '../b.js';",
      "export * from './c.js';",
      "export { d } from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "// import { g } from './g.js';",
      "/* import { h } from './h.js'; */",
    ].join('\n');

    expect(importsOf(source)).toEqual(['node:fs', './a.js', '../b.js', './c.js', './d.js', './e.js', './f.js']);
  });
});

describe('checkImports', () => {
  const rulesOf = (files: Record<string, string>): string[] => checkImports(new Map(Object.entries(files))).map((v) => `${v.file}: ${v.rule}: ${v.detail}`);

  it('should accept a small tree that keeps the rules', () => {
    expect(
      rulesOf({
        'src/core/a.ts': "import { e } from '../errors.js';\n/** A Buffer is passed in by the edge. */\nexport const x = 'process';",
        'src/errors.ts': 'export const e = 1;',
        'src/rescue/b.ts': "import { x } from '../core/a.js';\nimport fs from 'node:fs';",
        'src/proxy/c.ts': "import { y } from '../rescue/b.js';",
        'src/scripted/d.ts': "import { x } from '../core/a.js';",
        'src/cli/e.ts': "import { y } from '../rescue/b.js';\nimport { z } from '../proxy/c.js';",
      }),
    ).toEqual([]);
  });

  it.each([
    ['src/core/a.ts', "import fs from 'node:fs/promises';", 'core imports no node builtin'],
    ['src/core/a.ts', "import { createHash } from 'crypto';", 'core imports no node builtin'],
    ['src/core/a.ts', 'export const b = Buffer.from([]);', 'core uses no process, Buffer or clock'],
    ['src/core/a.ts', 'export const e = process.env;', 'core uses no process, Buffer or clock'],
    ['src/core/a.ts', 'export const t = Date.now();', 'core uses no process, Buffer or clock'],
    ['src/core/a.ts', 'export const t = new Date();', 'core uses no process, Buffer or clock'],
    ['src/core/a.ts', 'export const t = performance.now();', 'core uses no process, Buffer or clock'],
    ['src/errors.ts', "import os from 'node:os';", 'core imports no node builtin'],
    ['src/core/a.ts', "import { s } from '../state/s.js';", 'core imports no state'],
    ['src/state/a.ts', "import type { P } from '../proxy/p.js';", 'state imports no proxy'],
    ['src/state/a.ts', "import { E } from '../rescue/e.js';", 'state imports no rescue'],
    ['src/state/a.ts', "import { c } from '../cli/c.js';", 'state imports no cli'],
    ['src/rescue/a.ts', "import { p } from '../proxy/p.js';", 'rescue imports no proxy'],
    ['src/rescue/a.ts', "import { c } from '../cli/c.js';", 'rescue imports no cli'],
    ['src/proxy/a.ts', "import { c } from '../cli/c.js';", 'proxy imports no cli'],
    ['src/replay/a.ts', "import { p } from '../proxy/p.js';", 'replay imports no proxy'],
    ['src/report/a.ts', "export { p } from '../proxy/p.js';", 'report imports no proxy'],
    ['src/scripted/a.ts', "import { createSseParser } from '../proxy/sse-parser.js';", 'scripted imports no proxy'],
    ['src/rescue/a.ts', "import { priceOf } from '../replay/price-table.js';", 'rescue imports no replay'],
    ['src/replay/a.ts', "import type { H } from '../proxy/handler.js';", 'replay imports no proxy'],
    ['src/metrics/a.ts', "import { E } from '../rescue/e.js';", 'metrics imports no rescue'],
    ['src/wrapper/a.ts', "import { s } from '../state/s.js';", 'wrapper imports no state'],
    ['src/mcp/a.ts', "import { p } from '../proxy/p.js';", 'mcp imports no proxy'],
    ['src/newfolder/a.ts', 'export const a = 1;', 'every folder has a rule'],
  ])('should refuse %s with %s', (file, source, rule) => {
    const found = rulesOf({ [file]: source });

    expect(found.some((line) => line.startsWith(`${file}: ${rule}:`))).toBe(true);
  });

  it('should refuse a file-level import cycle, type-only imports included', () => {
    const found = rulesOf({
      'src/proxy/a.ts': "import { b } from './b.js';",
      'src/proxy/b.ts': "import type { C } from './c.js';",
      'src/proxy/c.ts': "import { a } from './a.js';",
    });

    expect(found).toEqual(['src/proxy/a.ts: no import cycle: src/proxy/a.ts -> src/proxy/b.ts -> src/proxy/c.ts -> src/proxy/a.ts']);
  });
});

describe('findCycles', () => {
  it('should find a file importing itself and ignore edges leaving the graph', () => {
    const graph = new Map([
      ['a', ['a', 'outside']],
      ['b', ['a']],
    ]);

    expect(findCycles(graph)).toEqual([['a', 'a']]);
  });
});
