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

describe("a kind's folder on disk (dirName)", () => {
  const probe = (originals: string, dirName: string) => (): (() => void) =>
    registerEpochKind({ tag: 'probe_dir', mode: undefined, counts: 'items', byCommand: false, originals, dirName, filesOf: () => [] });

  it("should refuse a dirName another kind's originals use, by its name or its folder on disk", () => {
    expect(probe('probe_own', 'spans')).toThrow('the folder spans is taken');
    expect(probe('probe_own', 'span')).toThrow('the folder span is taken');
  });

  it('should refuse a dirName that is not a folder name', () => {
    expect(probe('probe_own', '../x')).toThrow("an epoch kind's folder is lowercase letters, digits and _");
  });

  it('should put its originals in its dirName, and refuse a folder no kind keeps', async () => {
    const { originalsFolderOf, originalPathOf } = await import('../../src/state/originals-folder.js');
    const state = layout.layoutPaths('/state');
    const unregister = probe('probe_own', 'probe_disk')();
    try {
      expect(originalsFolderOf(state, 'probe_own')).toEqual({ dir: '/state/probe_disk', label: 'probe_disk' });
      expect(originalsFolderOf(state, 'span')).toEqual({ dir: '/state/spans', label: 'spans' });
      expect(originalPathOf(state, 'elided', 'a'.repeat(64), 'txt')).toBe(`/state/elided/${'a'.repeat(64)}.txt`);
    } finally {
      unregister();
    }
    expect(() => originalsFolderOf(state, 'probe_own')).toThrow('no epoch kind keeps its originals in "probe_own"');
  });
});
