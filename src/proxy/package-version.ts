/** ctxshed's own version, from its package.json, for what it tells other programs (the MCP handshake, the health route). */
import fs from 'node:fs/promises';

/** The `version` of the nearest package.json named ctxshed above this module (dist/ or src/), else `0.0.0`. */
export async function packageVersion(): Promise<string> {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const text = await fs.readFile(new URL('package.json', dir), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    try {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (pkg.name === 'ctxshed' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not ours; keep looking.
    }
  }
  return '0.0.0';
}
