/**
 * How layered the core is, as figures (issue 26, "The core as layers"): folder pairs of src/core/
 * that import each other both ways, imports from the root into a subfolder, imports up the
 * folders' layers (core-layers.ts, ignoring its exception lists), and the names the entry point
 * exports (values and types, by the TypeScript checker). Run: `npx tsx test/architecture/core-counts.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { CORE_ENTRY, CORE_LAYERS, FOLDER_TYPES } from './core-layers.js';
import { importsOf } from './import-rules.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder of a core file (`''` for the root, and for a folder's types file, which sits on the base), or undefined outside the core. */
function folderOf(file: string): string | undefined {
  if (!file.startsWith('src/core/')) return undefined;
  if (FOLDER_TYPES.has(file)) return '';
  const parts = file.slice('src/core/'.length).split('/');
  return parts.length === 1 ? '' : parts[0];
}

/** Every import between files of the core, the entry point left out, as [from, to] paths. */
function coreImports(): Array<readonly [string, string]> {
  const arrows: Array<readonly [string, string]> = [];
  for (const entry of fs.readdirSync(path.join(ROOT, 'src/core'), { recursive: true }) as string[]) {
    if (!entry.endsWith('.ts')) continue;
    const file = `src/core/${entry.split(path.sep).join('/')}`;
    if (file === CORE_ENTRY) continue;
    for (const spec of importsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/, '.ts');
      if (folderOf(target) !== undefined) arrows.push([file, target]);
    }
  }
  return arrows;
}

/** The import figures: pairs both ways, root into subfolders, and up the folders' layers. */
export function countImports(): { bothWays: string[]; rootToSub: number; upLayers: number } {
  const pairs = new Set<string>();
  let rootToSub = 0;
  let upLayers = 0;
  for (const [from, to] of coreImports()) {
    const a = folderOf(from) ?? '';
    const b = folderOf(to) ?? '';
    if (a === b) continue;
    pairs.add(`${a}>${b}`);
    if (a === '') rootToSub += 1;
    if ((CORE_LAYERS[b] ?? 0) > (CORE_LAYERS[a] ?? 0)) upLayers += 1;
  }
  const bothWays = [...pairs].filter((p) => p.split('>')[0]! < p.split('>')[1]! && pairs.has(p.split('>').reverse().join('>')));
  return { bothWays: bothWays.map((p) => p.replace('>', ' <-> ').replace(/^ /, '(root) ')), rootToSub, upLayers };
}

/** The names the entry point exports, as the TypeScript checker sees them: values and types. */
export function countExports(): { values: number; types: number } {
  const entry = path.join(ROOT, CORE_ENTRY);
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  let values = 0;
  let types = 0;
  for (const name of symbol === undefined ? [] : checker.getExportsOfModule(symbol)) {
    const resolved = name.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(name) : name;
    if (resolved.flags & ts.SymbolFlags.Value) values += 1;
    else types += 1;
  }
  return { values, types };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const imports = countImports();
  const exports = countExports();
  console.log(`folder pairs importing each other both ways: ${imports.bothWays.length} (${imports.bothWays.join(', ')})`);
  console.log(`root -> subfolder imports: ${imports.rootToSub}`);
  console.log(`imports up the folders' layers: ${imports.upLayers}`);
  console.log(`names exported from core/index.ts: ${exports.values + exports.types} (${exports.values} values, ${exports.types} types)`);
}
