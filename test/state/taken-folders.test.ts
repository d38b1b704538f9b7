import { describe, expect, it } from 'vitest';
import { KIND_NAME, registerEpochKind } from '../../src/core/epochs/kind-info.js';
import * as layout from '../../src/state/layout.js';

/**
 * A registered kind keeps its originals in `<state>/<folder>/` (docs/adding-a-kind.md), so the core
 * refuses a folder the state directory already uses. The core cannot import the layout; this test
 * ties its list to the layout's folder names, so a folder added there and not to the list fails here.
 */
describe("the folders a registered kind's originals may not take", () => {
  const folders = Object.entries(layout)
    .filter(([name, value]) => name.endsWith('_DIR_NAME') && typeof value === 'string')
    .map(([, value]) => value as string);

  it('should read the layout folder names', () => {
    expect(folders).toEqual(expect.arrayContaining(['conversations', 'elided', 'spans', 'thinking', 'proxies']));
  });

  it.each(folders.filter((folder) => KIND_NAME.test(folder)))('should refuse a kind whose originals would go in the state directory\'s "%s"', (folder) => {
    const register = (): (() => void) =>
      registerEpochKind({
        tag: 'probe_folder',
        mode: undefined,
        counts: 'items',
        byCommand: false,
        originals: folder,
        filesOf: () => [],
      });

    expect(register).toThrow(`the folder ${folder} is taken`);
  });
});
