/**
 * Is COMMAND Claude Code, and where in its command line do its own options start? Only then does
 * `rescue` add the read grant (claude-grant.ts). Recognised, in order:
 *   - an executable named `claude` (or `claude.exe`), however it was reached;
 *   - an executable whose real path is inside the `@anthropic-ai/claude-code` package (or one of
 *     its per-platform packages), or a launcher script that names that package;
 *   - `node SCRIPT ...` (or `bun`) where SCRIPT is such a file;
 *   - `npx [-y|--yes|-q|--quiet] @anthropic-ai/claude-code[@version] ...`.
 */
import path from 'node:path';

/** The I/O the check needs, passed in so tests hand in a small fake filesystem. */
export interface CommandLookup {
  /** The absolute path a command runs: a PATH lookup for a bare name; undefined if none. */
  which(command: string): Promise<string | undefined>;
  /** A path with every symlink resolved, or undefined when it does not exist. */
  realpath(file: string): Promise<string | undefined>;
  /** The first few KB of a file as text, or undefined (a launcher script's target is named there). */
  readHead(file: string): Promise<string | undefined>;
}

/** Claude Code, and the index in the full argv (executable at 0) where its own arguments begin. */
export type Recognized = { readonly kind: 'claude-code'; readonly argsStart: number; readonly how: string } | { readonly kind: 'other' };

const CLAUDE_NAME = /^claude(?:\.exe)?$/i;
const PACKAGE = '@anthropic-ai/claude-code';
const PACKAGE_PATH = /(?:^|[\\/])@anthropic-ai[\\/]claude-code(?:-[a-z0-9-]+)?[\\/]/;
const INTERPRETERS = /^(?:node|nodejs|bun)(?:\.exe)?$/i;
const NPX_SPEC = /^@anthropic-ai\/claude-code(?:@[^\s/]+)?$/;
// npx options that take no value: any other option before the package could swallow a word.
const NPX_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--no-install']);

/** Recognises Claude Code in `argv` (`[command, ...args]`). Never throws: a failed lookup is "other". */
export async function recognizeClaudeCode(argv: readonly string[], lookup: CommandLookup): Promise<Recognized> {
  const [command, ...args] = argv;
  if (command === undefined) return { kind: 'other' };
  const name = path.basename(command);
  if (CLAUDE_NAME.test(name)) return { kind: 'claude-code', argsStart: 1, how: `the ${name} executable` };
  try {
    if (await isClaudeFile(await lookup.which(command), lookup))
      return { kind: 'claude-code', argsStart: 1, how: `${command}, which resolves into ${PACKAGE}` };
    const [script] = args;
    if (INTERPRETERS.test(name) && script !== undefined && !script.startsWith('-')) {
      if (await isClaudeFile(path.resolve(script), lookup)) return { kind: 'claude-code', argsStart: 2, how: `${name} running ${script}` };
    }
    if (/^npx(?:\.cmd)?$/i.test(name)) {
      const spec = args.findIndex((word) => !NPX_FLAGS.has(word));
      if (spec !== -1 && NPX_SPEC.test(args[spec]!)) return { kind: 'claude-code', argsStart: spec + 2, how: `npx running ${args[spec]}` };
    }
  } catch {
    // An unreadable file or PATH entry: not recognised, and the banner says no grant was given.
  }
  return { kind: 'other' };
}

/** Whether `file` (real path) is inside the package, or is a launcher script naming it. */
async function isClaudeFile(file: string | undefined, lookup: CommandLookup): Promise<boolean> {
  if (file === undefined) return false;
  const real = await lookup.realpath(file);
  if (real === undefined) return false;
  if (PACKAGE_PATH.test(real)) return true;
  if (CLAUDE_NAME.test(path.basename(real))) return true;
  const head = await lookup.readHead(real);
  return head?.startsWith('#!') === true && head.includes(PACKAGE);
}
