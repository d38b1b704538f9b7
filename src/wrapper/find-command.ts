/**
 * Whether a command can be started, found as a shell finds it, before anything else runs: `rescue`
 * looks first, so a command that is not there costs one line and a shell's exit status (127 not
 * found, 126 found but not runnable) and no banner, no proxy (spawn-failure.ts has the words).
 * The spawn still reports a failure of its own (the file may go between the look and the start).
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describeSpawnFailure, type SpawnFailure } from './spawn-failure.js';

/** Why `command` cannot be started on `pathVar` (the child's PATH), or undefined when it can. */
export async function commandFailure(command: string, pathVar: string | undefined): Promise<SpawnFailure | undefined> {
  if (command.includes('/')) return fileFailure(command, await runnable(path.resolve(command)));
  // As a shell does: the first runnable file on the PATH; else a file found but not runnable is 126.
  let found: 'missing' | 'not_runnable' = 'missing';
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const state = await runnable(path.resolve(dir, command));
    if (state === 'runnable') return undefined;
    if (state !== 'missing') found = 'not_runnable';
  }
  return fileFailure(command, found === 'missing' ? 'missing' : 'not_runnable');
}

type FileState = 'runnable' | 'missing' | 'not_runnable' | 'directory';

async function runnable(file: string): Promise<FileState> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat === undefined) return 'missing';
  if (stat.isDirectory()) return 'directory';
  return fs.access(file, constants.X_OK).then(
    () => 'runnable' as const,
    () => 'not_runnable' as const,
  );
}

function fileFailure(command: string, state: FileState): SpawnFailure | undefined {
  switch (state) {
    case 'runnable':
      return undefined;
    case 'missing':
      return describeSpawnFailure(command, { code: 'ENOENT' });
    case 'not_runnable':
      return describeSpawnFailure(command, { code: 'EACCES' });
    case 'directory':
      return describeSpawnFailure(command, { code: 'EISDIR' });
  }
}
