/** The TypeScript sources the architecture rules read: each file under a folder of the repository, by its repository path. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Every `.ts` file under `folder` (e.g. `src`, `src/core`), keyed by its path from the root with `/`
 * separators; none in a `node_modules` (test/clients installs the real clients there).
 */
export async function sourceFiles(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await fs.readdir(path.join(ROOT, folder), { recursive: true })) {
    if (!entry.endsWith('.ts') || entry.split(path.sep).includes('node_modules')) continue;
    const file = `${folder}/${entry.split(path.sep).join('/')}`;
    files.set(file, await fs.readFile(path.join(ROOT, file), 'utf8'));
  }
  return files;
}
