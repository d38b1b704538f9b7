/**
 * Rewrites every static import (and `export ... from`) of `src/core/index.js` in the given folders
 * to import each name from the file that defines it (docs/core.md, "Layers": tests import the files
 * they test), found with the TypeScript checker. For a branch written before that rule, after its
 * merge: `npx tsx test/architecture/retarget-entry-imports.ts test properties`, then
 * `npx biome check --write` on the files it lists. A dynamic `import()` of the entry is only named,
 * to be rewritten by hand. Prints the files it changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = path.join(ROOT, 'src/core/index.ts');

/** One replacement of source text. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The `.ts` file a relative specifier names from `file`, or undefined for a package. */
function resolveSpec(file: string, spec: string): string | undefined {
  return spec.startsWith('.') ? path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts') : undefined;
}

/** The specifier that names `target` from `file`, as the repository writes them (`./x.js`). */
function specFor(file: string, target: string): string {
  const relative = path.relative(path.dirname(file), target).split(path.sep).join('/').replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The file that declares what `element` names, and the name it has there. */
function definitionOf(checker: ts.TypeChecker, element: ts.ImportSpecifier | ts.ExportSpecifier): { file: string; name: string } {
  const symbol = ts.isImportSpecifier(element) ? checker.getSymbolAtLocation(element.name) : checker.getExportSpecifierLocalTargetSymbol(element);
  if (symbol === undefined) throw new Error(`no symbol for ${element.getText()} in ${element.getSourceFile().fileName}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target.declarations?.[0];
  if (declaration === undefined) throw new Error(`no declaration for ${element.getText()} in ${element.getSourceFile().fileName}`);
  return { file: declaration.getSourceFile().fileName, name: target.name };
}

/** The edits that point `statement`, an import or re-export of the entry, at the defining files. */
function retarget(checker: ts.TypeChecker, file: string, statement: ts.ImportDeclaration | ts.ExportDeclaration): Edit {
  const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
  const bindings = ts.isImportDeclaration(statement) ? clause?.namedBindings : statement.exportClause;
  if (bindings === undefined || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings) || clause?.name !== undefined) {
    throw new Error(`${file}: only named imports of the entry are rewritten: ${statement.getText()}`);
  }
  const typeOnly = ts.isImportDeclaration(statement) ? (clause?.isTypeOnly ?? false) : statement.isTypeOnly;
  const groups = new Map<string, string[]>();
  for (const element of bindings.elements) {
    const local = element.name.text;
    const definition = definitionOf(checker, element);
    const item = `${element.isTypeOnly ? 'type ' : ''}${definition.name === local ? local : `${definition.name} as ${local}`}`;
    groups.set(definition.file, [...(groups.get(definition.file) ?? []), item]);
  }
  const keyword = ts.isImportDeclaration(statement) ? 'import' : 'export';
  const lines = [...groups].map(([target, items]) => `${keyword} ${typeOnly ? 'type ' : ''}{ ${items.join(', ')} } from '${specFor(file, target)}';`);
  return { start: statement.getStart(), end: statement.getEnd(), text: lines.join('\n') };
}

/** Rewrites the files of `folders` (relative to the repository) in place; returns those it changed. */
export function retargetEntryImports(folders: readonly string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error('tsconfig.json does not parse');
  const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true, incremental: false });
  const checker = program.getTypeChecker();
  const changed: string[] = [];
  for (const source of program.getSourceFiles()) {
    const file = source.fileName;
    // test/architecture/ plants imports of the entry in strings: they are not imports.
    if (!folders.some((folder) => file.startsWith(`${path.join(ROOT, folder)}/`)) || file.startsWith(path.join(ROOT, 'test/architecture/'))) continue;
    const edits: Edit[] = [];
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const spec = statement.moduleSpecifier;
      if (spec !== undefined && ts.isStringLiteral(spec) && resolveSpec(file, spec.text) === ENTRY) edits.push(retarget(checker, file, statement));
    }
    if (/\bimport\s*\(\s*['"][^'"]*core\/index\.js['"]/.test(source.text))
      console.error(`${path.relative(ROOT, file)}: a dynamic import() of the entry, to rewrite by hand`);
    if (edits.length === 0) continue;
    let text = source.text;
    for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    fs.writeFileSync(file, text);
    changed.push(path.relative(ROOT, file));
  }
  return changed;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const folders = process.argv.slice(2);
  for (const file of retargetEntryImports(folders.length > 0 ? folders : ['test', 'properties'])) console.log(file);
}
