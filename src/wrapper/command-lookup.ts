/** The real filesystem behind claude-code-command.ts's CommandLookup. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandLookup } from './claude-code-command.js';

/** A launcher script names its target near its top; an executable binary is never read past this. */
const HEAD_BYTES = 4096;

/** Lookups on this machine, resolving bare names on `pathVar` (the child's PATH). */
export function systemLookup(pathVar: string | undefined): CommandLookup {
  return {
    async which(command) {
      if (command.includes('/')) return path.resolve(command);
      for (const dir of (pathVar ?? '').split(path.delimiter)) {
        if (dir === '') continue;
        const candidate = path.resolve(dir, command);
        if (
          await fs.access(candidate, constants.X_OK).then(
            () => true,
            () => false,
          )
        )
          return candidate;
      }
      return undefined;
    },
    realpath: (file) => fs.realpath(file).catch(() => undefined),
    async readHead(file) {
      let handle: fs.FileHandle | undefined;
      try {
        handle = await fs.open(file, 'r');
        const buffer = Buffer.alloc(HEAD_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } catch {
        return undefined;
      } finally {
        await handle?.close();
      }
    },
  };
}
