import { describe, expect, it } from 'vitest';
import { CORE_ENTRY } from './core-layers.js';
import { checkEntryUse, checkTestsBypassEntry, exportedNames, namesTakenFromEntry } from './entry-use.js';
import { sourceFiles } from './source-files.js';

describe("the core's entry point", () => {
  it('should export only names some file of src/ outside src/core/ imports from it', async () => {
    const files = await sourceFiles('src');

    const violations = checkEntryUse(files);

    expect(exportedNames(files.get(CORE_ENTRY) ?? '').length).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });

  it('should be imported by no test or property test', async () => {
    const tests = [...(await sourceFiles('test'))].filter(([file]) => !file.startsWith('test/architecture/')); // their planted imports are not uses
    const files = new Map([...tests, ...(await sourceFiles('properties'))]);

    expect(checkTestsBypassEntry(files)).toEqual([]);
  });
});

describe('checkEntryUse', () => {
  const ENTRY = "export { a, type B, c as d } from './x.js';\nexport type { E } from './y.js';";
  const unused = (files: Record<string, string>): string[] => checkEntryUse(new Map(Object.entries({ [CORE_ENTRY]: ENTRY, ...files }))).map((v) => v.detail);

  it('should accept an entry whose every name is imported from the edges, by any form of import', () => {
    expect(
      unused({
        'src/proxy/p.ts': "import { a, type B } from '../core/index.js';",
        'src/cli/c.ts': "const { d } = await import('../core/index.js');",
        'src/state/s.ts': "import type * as core from '../core/index.js';\nlet e: core.E;",
      }),
    ).toEqual([]);
  });

  it('should fail on each planted name the edges do not import from the entry', () => {
    expect(
      unused({
        // B comes by its file's path, d is only imported inside the core, E is named in a comment,
        // a is imported by a test only.
        'src/proxy/p.ts': "import type { B } from '../core/x.js';\n// import { E } from '../core/index.js';",
        'src/core/z.ts': "import { d } from './index.js';",
        'test/core/t.test.ts': "import { a } from '../../src/core/index.js';",
      }),
    ).toEqual(['a', 'B', 'd', 'E']);
  });

  it('should read the names a file takes, aliases by their exported name', () => {
    expect(namesTakenFromEntry('src/cli/c.ts', "import {\n  a as x,\n  type B,\n} from '../core/index.js';\nexport { c } from '../core/index.js';")).toEqual([
      'a',
      'B',
      'c',
    ]);
  });
});

describe('checkTestsBypassEntry', () => {
  it('should fail on each planted test or property test that imports the entry, and pass one that imports the file', () => {
    const files = new Map(
      Object.entries({
        'test/core/t.test.ts': "import { a } from '../../src/core/index.js';",
        'properties/q.test.ts': "const { d } = await import('../src/core/index.js');",
        'test/core/ok.test.ts': "import { a } from '../../src/core/x.js';",
        'src/proxy/p.ts': "import { a } from '../core/index.js';",
      }),
    );

    expect(checkTestsBypassEntry(files).map((v) => v.file)).toEqual(['test/core/t.test.ts', 'properties/q.test.ts']);
  });
});
