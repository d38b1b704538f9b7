/**
 * Where the test-only install (test/clients/package.json, pinned by its own package-lock.json)
 * puts the real agent CLIs the suites drive: beside this file, never in the proxy's node_modules.
 */
import { fileURLToPath } from 'node:url';

/** The folder of the test-only install: its package.json, its lockfile, and its node_modules. */
export const CLIENTS_DIR = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');

function installed(relative: string): string {
  return fileURLToPath(new URL(`node_modules/${relative}`, import.meta.url));
}

/** Claude Code 2.1.332, under its own name. */
export const CLAUDE_CURRENT_BIN = installed('.bin/claude');
/**
 * Claude Code 2.1.197, side by side under an npm alias (its postinstall links its own platform
 * binary, nested under the alias's node_modules).
 */
export const CLAUDE_OLDER_BIN = installed('claude-code-2-1-197/bin/claude.exe');
/** Codex 0.171.0, under its own name. */
export const CODEX_CURRENT_BIN = installed('.bin/codex');
/** Codex 0.169.0, beside it under an npm alias, its platform package nested under the alias. */
export const CODEX_OLDER_BIN = installed('codex-0-169-0/bin/codex.js');

/** Every client's launcher: the install is complete when each is in place. */
export const CLIENT_BINS: readonly string[] = [CLAUDE_CURRENT_BIN, CLAUDE_OLDER_BIN, CODEX_CURRENT_BIN, CODEX_OLDER_BIN];
