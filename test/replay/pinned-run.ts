/**
 * The replay figures pinned on the shared sessions (test/fixtures/sessions): the runs the pin test
 * (replay-pinned.test.ts) repeats and `node dist/test/replay/write-pinned.js` writes again. Rescue's
 * stubs name files under the replay's temporary state directory, so its figures follow the length
 * of TMPDIR (docs/economics.md); every run here gets a TMPDIR of one fixed length.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli/cli-run.js';

/** The shared sessions, run from their folder so that the JSON names them by their file name. */
export const PINNED_CWD = fileURLToPath(new URL('../fixtures/sessions', import.meta.url));
export const PINNED_SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'];
/** Where the pinned outputs are kept. */
export const PINNED_DIR = fileURLToPath(new URL('../fixtures/replay/pinned', import.meta.url));
/** The length of the TMPDIR every pinned run gets. */
const PINNED_TMPDIR_LENGTH = 96;

/** The pinned runs: a name (its file in PINNED_DIR) and the replay's arguments. */
export const PINNED_RUNS: ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> = [
  { name: 'replay.json', args: ['replay', ...PINNED_SESSIONS, '--json'] },
  { name: 'whole-figures.json', args: ['replay', '--whole-figures', ...PINNED_SESSIONS, '--json'] },
];

/** Runs one pinned replay with a TMPDIR of the pinned length under `under`, and returns its JSON. */
export async function runPinned(args: readonly string[], under: string = os.tmpdir()): Promise<unknown> {
  const base = path.join(under, 'pin-');
  if (base.length + 1 > PINNED_TMPDIR_LENGTH) throw new Error(`the temporary folder ${under} is too long to pin the figures under`);
  const tmp = `${base}${'x'.repeat(PINNED_TMPDIR_LENGTH - base.length)}`;
  await fs.mkdir(tmp, { recursive: true });
  try {
    const result = await runCli(args, { cwd: PINNED_CWD, env: { ...process.env, TMPDIR: tmp }, timeoutMs: 590_000 });
    if (result.code !== 0) throw new Error(`replay exited ${String(result.code)}: ${result.stderr}`);
    return JSON.parse(result.stdout) as unknown;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
