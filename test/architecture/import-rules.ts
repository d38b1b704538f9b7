/**
 * The layering rules of src/ as a checker over source text: which folder may import which, what
 * the pure core may not touch, and no import cycles between files. Pure, so its own test can plant
 * small examples and see each rule fire.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

/** One broken rule, for a person to read. */
export interface Violation {
  readonly file: string;
  readonly rule: string;
  readonly detail: string;
}

/**
 * Which top-level folders of src/ each folder may import (docs/style.md "Shape of the code"):
 * the edges import the core, never the reverse. A folder missing here is itself a violation, so
 * a new folder must say where it sits. `src/errors.ts` is in no folder and open to all.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  // What is counted is named in core's words; the engine and the proxy call it, never the reverse.
  metrics: ['core'],
  state: ['core'],
  // The store puts the state directory and Postgres behind one interface (src/store/store-types.ts).
  store: ['core', 'state'],
  // The scripted API stands in for the upstream: it shares pure parsing with the proxy, never the proxy.
  scripted: ['core'],
  restore: ['core', 'state', 'store'],
  report: ['core', 'state', 'store'],
  rescue: ['core', 'metrics', 'state', 'store'],
  // Replay runs the engine offline: no proxy, no socket.
  replay: ['core', 'rescue', 'scripted', 'state', 'store'],
  // The proxy's restore routes read through restore/, as `restore` and `spans` do (docs/team.md).
  proxy: ['core', 'metrics', 'rescue', 'restore', 'state', 'store'],
  mcp: ['core', 'report', 'restore', 'state', 'store'],
  demo: ['core', 'proxy', 'rescue', 'scripted', 'state', 'store'],
  wrapper: ['core'],
  cli: ['core', 'demo', 'mcp', 'metrics', 'proxy', 'replay', 'report', 'rescue', 'restore', 'scripted', 'state', 'store', 'wrapper'],
};

/** Files besides src/core/ that must be as pure as the core (the core imports them). */
export const PURE_FILES: readonly string[] = ['src/errors.ts'];

/** What the core must not use: the process, Node's Buffer, or a clock (pass the time in). */
const IMPURE_USES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bBuffer\b/, 'Buffer'],
  [/\bprocess\b/, 'process'],
  [/\bDate\.now\b/, 'Date.now'],
  [/\bnew\s+Date\s*\(/, 'new Date('],
  [/\bperformance\b/, 'performance'],
];

const BUILTINS = new Set(builtinModules);

/** The module specifiers a file imports or re-exports, type-only ones included. */
export function importsOf(source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) if (m[1] !== undefined) found.push(m[1]);
  return found;
}

/**
 * Checks `files` (path relative to the repository, e.g. `src/core/stub.ts`, to source text)
 * against every rule; empty when all hold.
 */
export function checkImports(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const layer = layerOf(file);
    const pure = layer === 'core' || PURE_FILES.includes(file);
    if (layer !== undefined && !Object.hasOwn(ALLOWED_IMPORTS, layer))
      violations.push({ file, rule: 'every folder has a rule', detail: `src/${layer}/ is not in ALLOWED_IMPORTS` });
    const edges: string[] = [];
    for (const spec of importsOf(source)) {
      if (isBuiltin(spec)) {
        if (pure) violations.push({ file, rule: 'core imports no node builtin', detail: spec });
        continue;
      }
      if (!spec.startsWith('.')) {
        if (pure) violations.push({ file, rule: 'core imports no package', detail: spec });
        continue;
      }
      const target = resolveTs(file, spec);
      edges.push(target);
      const targetLayer = layerOf(target);
      if (layer !== undefined && targetLayer !== undefined && targetLayer !== layer && !(ALLOWED_IMPORTS[layer] ?? []).includes(targetLayer)) {
        violations.push({ file, rule: `${layer} imports no ${targetLayer}`, detail: spec });
      }
      if (pure && !(layerOf(target) === 'core' || PURE_FILES.includes(target))) {
        violations.push({ file, rule: 'core imports only core and pure files', detail: spec });
      }
    }
    graph.set(file, edges);
    if (pure) {
      const code = stripStrings(stripComments(source));
      for (const [pattern, name] of IMPURE_USES) if (pattern.test(code)) violations.push({ file, rule: 'core uses no process, Buffer or clock', detail: name });
    }
  }
  for (const cycle of findCycles(graph)) violations.push({ file: cycle[0] ?? '', rule: 'no import cycle', detail: cycle.join(' -> ') });
  return violations;
}

/** Every import cycle among the files of `graph` (edges to files outside it are ignored), once each. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** The top-level folder of src/ a file is in (`core`, `proxy` ...), or undefined. */
function layerOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'src' && parts.length > 2 ? parts[1] : undefined;
}

/** `./x.js` from `src/a/b.ts` is `src/a/x.ts` (the project imports .ts files by their .js name). */
function resolveTs(from: string, spec: string): string {
  return path.posix.join(path.posix.dirname(from), spec).replace(/\.js$/, '.ts');
}

function isBuiltin(spec: string): boolean {
  return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0] ?? '');
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function stripStrings(code: string): string {
  return code.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}
