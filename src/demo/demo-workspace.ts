/**
 * The demo's pretend project: file contents and command output generated from the turn number,
 * so every run sends the same bytes. Some non-ASCII in it, as real code and logs have.
 */

/** Where the pretend project lives; nothing is ever read from or written to this path. */
export const DEMO_PROJECT_ROOT = '/demo/acme-shop';

/** What the scripted model asks the client to run on a given turn. */
export type DemoToolCall =
  | { readonly name: 'Read'; readonly input: { readonly file_path: string } }
  | { readonly name: 'Bash'; readonly input: { readonly command: string; readonly description: string } };

const MODULES = ['cart', 'checkout', 'pricing', 'inventory', 'search', 'auth', 'shipping', 'i18n'] as const;
const COMMANDS = [
  { command: 'npm test', description: 'Run the test suite' },
  { command: 'git log --stat -n 12', description: 'Recent commits' },
  { command: 'grep -rn "TODO" src', description: 'Find open TODOs' },
] as const;

/** The tool call of `turn` (1-based): mostly file reads, every third turn a command. */
export function toolCallFor(turn: number): DemoToolCall {
  if (turn % 3 === 0) {
    const c = COMMANDS[(turn / 3) % COMMANDS.length] ?? COMMANDS[0];
    return { name: 'Bash', input: { command: c.command, description: c.description } };
  }
  const module = MODULES[turn % MODULES.length] ?? MODULES[0];
  return { name: 'Read', input: { file_path: `${DEMO_PROJECT_ROOT}/src/${module}/${module}-${String(turn).padStart(2, '0')}.ts` } };
}

/** Output of a command of the pretend project, about 4-10 KB, different every turn. */
export function commandOutput(command: string, turn: number): string {
  const lines: string[] = [`$ ${command}`];
  const count = 50 + ((turn * 17) % 60);
  for (let i = 0; i < count; i++) {
    const module = MODULES[(turn + i) % MODULES.length] ?? MODULES[0];
    if (command.startsWith('npm test')) lines.push(` ✓ test/${module}/${module}-${i}.test.ts (${3 + ((i * 7) % 20)} tests) ${10 + ((turn * i) % 90)}ms`);
    else if (command.startsWith('git log'))
      lines.push(`${hex7(turn * 131 + i)} ${module}: handle crème brûlée in the menu — Zoë Müller (${i + 1} files, +${(i * 13) % 97}/-${(i * 5) % 41})`);
    else lines.push(`src/${module}/${module}-${i}.ts:${10 + ((i * 29) % 300)}:  // TODO(jürgen): naïve rounding for ${module} — fix before the 2.0 release`);
  }
  lines.push(command.startsWith('npm test') ? ` Test Files  ${count} passed (${count})\n      Tests  ${count * 9} passed` : '');
  return `${lines.join('\n')}\n`;
}

/** Contents of a pretend source file, about 4-11 KB, different for every path and turn. */
export function fileContents(filePath: string, turn: number): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1).replace(/\.ts$/, '');
  const ident = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const lines = [`// ${name}.ts — règles métier pour « ${name} » (café, crème brûlée, jalapeño)`, `import type { Item, Money } from '../types.js';`, ''];
  const functions = 14 + ((turn * 7) % 20);
  for (let i = 0; i < functions; i++) {
    lines.push(
      `/** Prix n°${i} de ${ident}: rounds to the cent, never below zero (€, ¥, £). */`,
      `export function ${ident}Rule${i}(items: readonly Item[], rate = ${(1 + ((turn + i) % 9) / 10).toFixed(1)}): Money {`,
      `  const total = items.reduce((sum, item) => sum + item.cents * item.quantity, 0);`,
      `  return { cents: Math.max(0, Math.round(total * rate)), currency: '${['EUR', 'JPY', 'GBP'][i % 3] ?? 'EUR'}' };`,
      '}',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function hex7(n: number): string {
  return ((n * 2654435761) >>> 0).toString(16).padStart(8, '0').slice(0, 7);
}
