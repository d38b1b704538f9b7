import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './source-files.js';
import { countImports } from './core-counts.js';
import { checkCoreLayers, CORE_LAYERS, FOLDER_TYPES, KNOWN_UP, PLACED } from './core-layers.js';

describe('the layers of src/core/', () => {
  it('should have every import run down the layers', async () => {
    const files = await sourceFiles('src/core');

    const violations = checkCoreLayers(files);

    expect(files.size).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });

  it('should have no two folders of the core import each other, folders on one layer included', () => {
    expect(countImports().bothWays).toEqual([]);
  });

  it('should give every folder of the core a layer, and place only files that exist', async () => {
    const folders = (await fs.readdir(path.join(ROOT, 'src/core'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const files = await sourceFiles('src/core');

    expect(folders.filter((f) => !Object.hasOwn(CORE_LAYERS, f))).toEqual([]);
    expect(Object.keys(PLACED).filter((f) => !files.has(f))).toEqual([]);
    expect([...FOLDER_TYPES].filter((f) => !files.has(f))).toEqual([]);
    // A known arrow that is gone is taken off the list, so the list stays what is left to do.
    expect(KNOWN_UP.filter(([f, t]) => !(files.get(f) ?? '').includes(`/${path.posix.basename(t, '.ts')}.js'`))).toEqual([]);
  });
});

describe('checkCoreLayers', () => {
  const rulesOf = (files: Record<string, string>): string[] => checkCoreLayers(new Map(Object.entries(files))).map((v) => `${v.file}: ${v.rule}`);

  it('should accept imports down the layers, and the entry point importing all', () => {
    expect(
      rulesOf({
        'src/core/index.ts': "export * from './epochs/index.js';\nexport * from './stub.js';",
        'src/core/epochs/apply.ts': "import { MESSAGES_API } from '../dialects/messages.js';\nimport { x } from '../stub.js';",
        'src/core/dialects/chat.ts': "import { indexChat } from '../openai/chat-index.js';",
        'src/core/thinking/freeze-in-plan.ts': "import type { ShedPlan } from '../shed/plan-span.js';",
        'src/core/epoch-types.ts': "import type { StubLabel } from './labels/label-types.js';\nimport type { FrozenSpan } from './shed/shed-types.js';",
        'src/core/labels/label-types.ts': "import type { Span } from '../transcript-index-types.js';",
        'src/core/decide/decide-epoch.ts': "import { workingSet } from '../epochs/working-set.js';",
      }),
    ).toEqual([]);
  });

  it('should fail on each planted import up the layers', () => {
    expect(
      rulesOf({
        'src/core/stub.ts': "import { apply } from './epochs/apply.js';",
        'src/core/shed/plan-span.ts': "import { listThinking } from '../thinking/list-thinking.js';",
        'src/core/dialects/messages.ts': "import type { Epoch } from '../epochs/index.js';",
        'src/core/epochs/apply.ts': "import { createMemo } from '../rewrite/rewrite-memo.js';",
        'src/core/stub-paths.ts': "import { rule } from './labels/rule-duplicate.js';",
        'src/core/shed/shed-types.ts': "import { planShed } from './plan-span.js';",
        'src/core/openai/chat-index.ts': "import { CHAT_API } from '../dialects/chat.js';",
        'src/core/labels/ledger.ts': "import { x } from '../index.js';",
        'src/core/newfolder/a.ts': "import { x } from '../stub.js';",
      }),
    ).toEqual([
      'src/core/stub.ts: the core imports one way: down its layers',
      'src/core/shed/plan-span.ts: the core imports one way: down its layers',
      'src/core/dialects/messages.ts: the core imports one way: down its layers',
      'src/core/epochs/apply.ts: the core imports one way: down its layers',
      'src/core/stub-paths.ts: the core imports one way: down its layers',
      'src/core/shed/shed-types.ts: the core imports one way: down its layers',
      'src/core/openai/chat-index.ts: the core imports one way: down its layers',
      'src/core/labels/ledger.ts: the core imports no entry point',
      'src/core/newfolder/a.ts: every folder of the core has a layer',
    ]);
  });
});
