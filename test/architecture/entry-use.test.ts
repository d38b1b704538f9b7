import { describe, expect, it } from 'vitest';
import { CORE_ENTRY } from './core-layers.js';
import { checkEntryUse, exportedNames, namesTakenFromEntry } from './entry-use.js';
import { sourceFiles } from './source-files.js';

describe("the core's entry point", () => {
  it('should export only names some file outside src/core/ imports from it', async () => {
    const tests = [...(await sourceFiles('test'))].filter(([file]) => !file.startsWith('test/architecture/')); // their planted imports are not uses
    const files = new Map([...(await sourceFiles('src')), ...tests, ...(await sourceFiles('properties'))]);

    const violations = checkEntryUse(files);

    expect(exportedNames(files.get(CORE_ENTRY) ?? '').length).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });
});

describe('checkEntryUse', () => {
  const ENTRY = "export { a, type B, c as d } from './x.js';\nexport type { E } from './y.js';";
  const unused = (files: Record<string, string>): string[] => checkEntryUse(new Map(Object.entries({ [CORE_ENTRY]: ENTRY, ...files }))).map((v) => v.detail);

  it('should accept an entry whose every name is imported from outside the core, by any form of import', () => {
    expect(
      unused({
        'src/proxy/p.ts': "import { a, type B } from '../core/index.js';",
        'test/core/t.test.ts': "const { d } = await import('../../src/core/index.js');",
        'properties/q.test.ts': "import type * as core from '../src/core/index.js';\nlet e: core.E;",
      }),
    ).toEqual([]);
  });

  it('should fail on each planted name nobody outside the core imports from the entry', () => {
    expect(
      unused({
        // B comes by its file's path, d is only imported inside the core, E is named in a comment.
        'src/proxy/p.ts': "import { a } from '../core/index.js';\nimport type { B } from '../core/x.js';\n// import { E } from '../core/index.js';",
        'src/core/z.ts': "import { d } from './index.js';",
      }),
    ).toEqual(['B', 'd', 'E']);
  });

  it('should read the names a file takes, aliases by their exported name', () => {
    expect(namesTakenFromEntry('src/cli/c.ts', "import {\n  a as x,\n  type B,\n} from '../core/index.js';\nexport { c } from '../core/index.js';")).toEqual([
      'a',
      'B',
      'c',
    ]);
  });
});
