/**
 * Installs the real agent CLIs the real-client suites drive (test/clients/package.json, pinned by
 * its own package-lock.json) when they are missing or out of date, so that the proxy's own
 * `npm ci` stays light (README "Set up") and `npm test` (and `.ci/run`, which runs it) still gets
 * them. `npm test` runs it first; alone: `npm run test:clients`.
 *
 * Up to date means: the stamp the last install wrote names the sha256 of this folder's
 * package.json and package-lock.json as they are now, and every client's launcher is in place.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_BINS, CLIENTS_DIR } from './client-paths.js';

/** What the last install was made from: inside node_modules, so `npm ci` and removing it take it away too. */
const STAMP = path.join(CLIENTS_DIR, 'node_modules', '.ctxshed-installed');

/** The sha256 of the manifest and the lockfile: what an install is made from. */
function wanted(): string {
  const hash = createHash('sha256');
  for (const name of ['package.json', 'package-lock.json']) hash.update(readFileSync(path.join(CLIENTS_DIR, name)));
  return hash.digest('hex');
}

/** The launchers not in place. */
function missingBins(): string[] {
  return CLIENT_BINS.filter((bin) => !existsSync(bin)).map((bin) => path.relative(process.cwd(), bin));
}

/** `undefined` when the clients installed are the ones the lockfile names, else why not. */
function whyOutOfDate(want: string): string | undefined {
  if (!existsSync(STAMP)) return 'not installed yet';
  if (readFileSync(STAMP, 'utf8').trim() !== want) return 'test/clients/package.json or package-lock.json changed since the last install';
  const missing = missingBins();
  return missing.length === 0 ? undefined : `${missing.join(', ')} missing`;
}

function main(): number {
  const want = wanted();
  const why = whyOutOfDate(want);
  if (why === undefined) return 0;
  process.stderr.write(`test clients: installing Claude Code and Codex for the real-client suites into test/clients/node_modules (about 1.45 GB): ${why}\n`);
  // Claude Code 2.1.332 declares Node 22 or later; on Node 20 it runs (a native binary), so an
  // engine mismatch stays a warning even where an npmrc or NPM_CONFIG_ENGINE_STRICT says otherwise.
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--engine-strict=false'], { cwd: CLIENTS_DIR, stdio: 'inherit' });
  if (npm.error !== undefined) {
    process.stderr.write(`test clients: could not run npm: ${npm.error.message}\n`);
    return 1;
  }
  if (npm.status !== 0) {
    process.stderr.write(`test clients: npm ci in test/clients failed (${npm.status === null ? `signal ${String(npm.signal)}` : `exit ${npm.status}`})\n`);
    return 1;
  }
  const missing = missingBins();
  if (missing.length > 0) {
    process.stderr.write(`test clients: npm ci in test/clients left ${missing.join(', ')} missing\n`);
    return 1;
  }
  writeFileSync(STAMP, `${want}\n`);
  return 0;
}

process.exitCode = main();
