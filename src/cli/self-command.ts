/**
 * How to run ctxshed again, as a person would type it here: `npx ctxshed` when npx ran it (from the
 * clone, README "Set up"), `ctxshed` when that name on the PATH is what ran (`npm link`), else the
 * path that ran (`node dist/src/cli/main.js` from a checkout), so a command ctxshed prints (the
 * demo's "look further") works when pasted.
 */
import path from 'node:path';
import { shellWord } from '../demo/run-demo.js';

/** Where the running ctxshed came from: `process.argv[1]`, the cwd, `PATH`, and the npm script that ran it. */
export interface SelfInvocation {
  readonly script: string | undefined;
  readonly cwd: string;
  readonly pathEnv: string | undefined;
  /** `npm_lifecycle_event`: `npx` when npx (npm exec) ran the bin, with its own folder put on the PATH for that run only. */
  readonly npmEvent?: string | undefined;
}

/** The words that run ctxshed again from `cwd`, quoted for a POSIX shell. */
export function selfCommand(self: SelfInvocation): string {
  const { script } = self;
  if (script === undefined) return 'ctxshed';
  const absolute = path.resolve(self.cwd, script);
  // npm's bin link keeps its own name in argv[1] (a symlink is not followed there).
  if (path.basename(absolute) === 'ctxshed') {
    // npx put its link's folder on the PATH for this run alone: the person's shell has no `ctxshed`.
    if (self.npmEvent === 'npx') return 'npx ctxshed';
    return onPath(absolute, self) ? 'ctxshed' : shellWord(shown(absolute, self.cwd));
  }
  return `node ${shellWord(shown(absolute, self.cwd))}`;
}

/** The running process's own invocation. */
export function currentSelfCommand(): string {
  return selfCommand({ script: process.argv[1], cwd: process.cwd(), pathEnv: process.env['PATH'], npmEvent: process.env['npm_lifecycle_event'] });
}

function onPath(absolute: string, self: SelfInvocation): boolean {
  const dir = path.dirname(absolute);
  return (self.pathEnv ?? '').split(path.delimiter).some((d) => d !== '' && path.resolve(self.cwd, d) === dir);
}

/** A path below the cwd as a relative one (`dist/src/cli/main.js`); any other stays absolute. */
function shown(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return absolute;
  return relative.includes(path.sep) ? relative : `./${relative}`;
}
