/**
 * The core's entry point kept slim (docs/core.md, "Layers"): every name `src/core/index.ts` exports
 * is imported from it by some file of `src/` outside `src/core/` (the edges: engine, proxy, state,
 * CLI, ...). Tests and property tests import each name from the file that defines it, never from
 * the entry, so the entry is the edges' face and not the tests'. Pure over source text, so its test
 * can plant an entry with a name nobody imports, or a test importing the entry, and see the rules fire.
 */
import path from 'node:path';
import type { Violation } from './import-rules.js';
import { CORE_ENTRY } from './core-layers.js';

/** The entry as an import specifier resolves it (`.../core/index.js`), from the repository root. */
const ENTRY_JS = CORE_ENTRY.replace(/\.ts$/, '.js');

/** The names a source's `export {...} from` and `export type {...} from` lists give out (`a as b` gives `b`). */
export function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const m of stripComments(source).matchAll(/\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"]/g)) {
    for (const item of listItems(m[1]!)) names.push(item.split(/\s+as\s+/).at(-1)!);
  }
  return names;
}

/**
 * The names `file` takes from the entry: named imports and re-exports (`a as b` takes `a`), the
 * names destructured from a dynamic `import()` of it, and `ns.name` after `import * as ns`.
 */
export function namesTakenFromEntry(file: string, source: string): string[] {
  const code = stripComments(source);
  const isEntry = (spec: string): boolean => spec.startsWith('.') && path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) === ENTRY_JS;
  const names: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    if (isEntry(m[2]!)) for (const item of listItems(m[1]!)) names.push(item.split(/\s+as\s+/)[0]!);
  }
  for (const m of code.matchAll(/\{([^}]*)\}\s*=\s*await\s+import\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    if (isEntry(m[2]!)) for (const item of listItems(m[1]!)) names.push(item.split(':')[0]!.trim());
  }
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?\*\s+as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/g)) {
    if (isEntry(m[2]!)) for (const use of code.matchAll(new RegExp(`\\b${m[1]}\\.([\\w$]+)`, 'g'))) names.push(use[1]!);
  }
  return names;
}

/**
 * Checks the entry's exports against `files` (path relative to the repository to source text,
 * the entry itself included): a violation for each name no file of `src/` outside `src/core/` takes from it.
 */
export function checkEntryUse(files: ReadonlyMap<string, string>): Violation[] {
  const taken = new Set<string>();
  for (const [file, source] of files) if (isEdge(file)) for (const name of namesTakenFromEntry(file, source)) taken.add(name);
  const exported = exportedNames(files.get(CORE_ENTRY) ?? '');
  return exported
    .filter((name) => !taken.has(name))
    .map((name) => ({ file: CORE_ENTRY, rule: 'exports only what a file outside src/core/ imports from it', detail: name }));
}

/** A violation for each file of `test/` or `properties/` in `files` that takes a name from the entry: tests import the file they test. */
export function checkTestsBypassEntry(files: ReadonlyMap<string, string>): Violation[] {
  return [...files]
    .filter(([file, source]) => /^(test|properties)\//.test(file) && namesTakenFromEntry(file, source).length > 0)
    .map(([file]) => ({ file, rule: 'a test imports each name of the core from the file that defines it, not from the entry', detail: ENTRY_JS }));
}

/** A file of the edges: in `src/`, outside the core. */
function isEdge(file: string): boolean {
  return file.startsWith('src/') && !file.startsWith('src/core/');
}

/** The items of a `{...}` list, each trimmed, with a leading `type ` dropped. */
function listItems(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter((item) => item !== '');
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}
