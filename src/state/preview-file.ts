/**
 * A conversation's preview (`<state>/previews/`): its first prompt, kept for the reports and the
 * status line from the conversation's first model call, whether or not it ever latches an epoch
 * (a record, and so its `firstPrompt`, exists only from the first epoch). Written once per
 * conversation, 0600 in a 0700 folder; never rewritten, never needed by the rewrite.
 *
 * The file name starts with the first 16 hex digits of the sha256 of the client's session id
 * (`x-claude-code-session-id`, Codex's `session-id`), or `0`s without one, then the key:
 * `<session16>-<key>.json`. `ctxshed statusline`, given a session id, finds its conversations
 * from the folder's listing alone.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { FILE_MODE, isHex64, PREVIEWS_DIR_NAME, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { hasErrnoCode } from './state-error.js';
import { sha256Hex } from './sha256-hex.js';
import { isRecord } from '../errors.js';

/** The longest prompt a preview keeps, in UTF-16 code units. */
export const PREVIEW_MAX_CHARS = 200;
/** The hex digits of the session id's sha256 a preview's name carries. */
export const SESSION_HEX = 16;
const NO_SESSION = '0'.repeat(SESSION_HEX);
const PREVIEW_NAME = /^([0-9a-f]{16})-([0-9a-f]{64})\.json$/;

/** What a preview file holds. */
export interface Preview {
  readonly key: string;
  /** The session id's hash as in the name; null without a session id. */
  readonly session: string | null;
  readonly agentId: string | null;
  readonly firstPrompt: string;
  /** When it was written (the conversation's first model call this state directory saw). */
  readonly t: string;
}

/** The name part of a session id: the first 16 hex digits of its sha256. */
export function sessionHashOf(sessionId: string): string {
  return sha256Hex(Buffer.from(sessionId, 'utf8')).slice(0, SESSION_HEX);
}

/** The previews folder of a state directory. */
export function previewsDir(state: StateDir): string {
  return path.join(state.root, PREVIEWS_DIR_NAME);
}

/** Writes the preview once: an existing one is kept. */
export async function writePreviewOnce(state: StateDir, preview: Preview): Promise<void> {
  if (!isHex64(preview.key)) return;
  const dir = previewsDir(state);
  await openPrivateSubdir(dir);
  const file = path.join(dir, `${preview.session ?? NO_SESSION}-${preview.key}.json`);
  const text = `${JSON.stringify({ ...preview, firstPrompt: preview.firstPrompt.slice(0, PREVIEW_MAX_CHARS) })}\n`;
  try {
    await fs.writeFile(file, text, { flag: 'wx', mode: FILE_MODE });
  } catch (error) {
    if (!hasErrnoCode(error, 'EEXIST')) throw error;
  }
}

/** The previews, by key; those of one session only when `session` (a hash) is given. Unreadable ones are skipped. */
export async function readPreviews(state: StateDir, session?: string): Promise<Map<string, Preview>> {
  const previews = new Map<string, Preview>();
  let names: string[];
  try {
    names = await fs.readdir(previewsDir(state));
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT') || hasErrnoCode(error, 'ENOTDIR')) return previews;
    throw error;
  }
  for (const name of names.sort()) {
    const match = PREVIEW_NAME.exec(name);
    if (match === null || (session !== undefined && match[1] !== session)) continue;
    const preview = await readPreview(path.join(previewsDir(state), name));
    if (preview !== undefined && preview.key === match[2]) previews.set(preview.key, preview);
  }
  return previews;
}

async function readPreview(file: string): Promise<Preview | undefined> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    if (!isRecord(value) || typeof value['key'] !== 'string' || typeof value['firstPrompt'] !== 'string' || typeof value['t'] !== 'string') return undefined;
    return {
      key: value['key'],
      session: typeof value['session'] === 'string' ? value['session'] : null,
      agentId: typeof value['agentId'] === 'string' ? value['agentId'] : null,
      firstPrompt: value['firstPrompt'].slice(0, PREVIEW_MAX_CHARS),
      t: value['t'],
    };
  } catch {
    return undefined;
  }
}
