/**
 * Where everything lives in a state directory, and the names that are allowed there.
 *
 * ```
 * <state>/                      0700
 *   conversations/<key>.json    0600  one per conversation that has epochs (key = 64 lowercase hex)
 *   elided/<sha256>.txt         0600  a block's text, named by the sha256 of its bytes
 *   elided/<sha256>.json        0600  (only when FrozenBlock.rawSha256 is set) the exact original
 *                                     JSON bytes of the content value, named by their sha256
 *   spans/<sha256>.json         0600  (shed mode) a shed span's exact bytes, named by their sha256
 *   spans/<sha256>.md           0600  (shed mode) the same span, readable: who said what
 *   thinking/<sha256>.json      0600  (prefix-check models) a removed thinking block's exact bytes
 *   <folder>/<sha256>.<ext>     0600  a registered epoch kind's originals (0700 folder, kind-original.ts)
 *   sealed/<sha256>.txt         0600  a sealed block's text, moved out of elided/ (seal-block.ts)
 *   sealed/<sha256>.json        0600  a sealed block's original JSON bytes, when it has some
 *   sealed/<sha256>.seal.json   0600  the record of the move: why and when
 *   wire.jsonl                  0600  one JSON line per proxied request (append-only)
 *   previews/<s16>-<key>.json   0600  a conversation's first prompt, from its first model call
 *                                     (s16: its session id's hash; preview-file.ts)
 *   proxies/<pid>.json          0600  a running proxy's URL and metrics URL (proxy-file.ts)
 *   owner.key                   0600  the restore routes' key with no owner rule (owner-key.ts)
 *   .lock                             proper-lockfile's lock directory for the whole state dir (seal, unseal)
 *   .locks/<key>                      the same, one per conversation while it latches (conversation-lock.ts)
 *   owners/<ownerId>/           0700  another owner's complete state directory, under an owner rule (owner-state.ts)
 * ```
 *
 * Conversation records and elided files are written with write-file-atomic, which after a
 * SIGKILL can leave its temp file `<name>.<digits>` next to the target; every reader skips those.
 * A record only ever names elided files and spans that were durable before the record was written.
 * `spans/` appears with the first shed epoch, `thinking/` with the first epoch that removes a
 * thinking block; a state directory without them is complete.
 */
import path from 'node:path';
import { StateError } from './state-error.js';

/** Folders are private to the user (docs/design.md "State directory"). */
export const DIR_MODE = 0o700;
/** Files are private to the user. */
export const FILE_MODE = 0o600;

export const CONVERSATIONS_DIR_NAME = 'conversations';
export const ELIDED_DIR_NAME = 'elided';
export const SPANS_DIR_NAME = 'spans';
export const THINKING_DIR_NAME = 'thinking';
export const SEALED_DIR_NAME = 'sealed';
export const WIRE_FILE_NAME = 'wire.jsonl';
export const LOCK_DIR_NAME = '.lock';
/** Under an owner rule, each other owner's state directory (owner-state.ts). */
export const OWNERS_DIR_NAME = 'owners';
/** One lock directory per conversation that is latching (conversation-lock.ts). */
export const LOCKS_DIR_NAME = '.locks';
/** Each conversation's first prompt, from its first model call (preview-file.ts). */
export const PREVIEWS_DIR_NAME = 'previews';
/** Where a running `rescue` or `serve` says its metrics are (proxy-file.ts). */
export const PROXIES_DIR_NAME = 'proxies';
/** Each conversation's last usage reading, shared by the processes on the directory (reading-file.ts). */
export const READINGS_DIR_NAME = 'readings';

/** An elided file holds either the block's text or the original JSON bytes of its content. */
export type ElidedExt = 'txt' | 'json';
/** A span's files: its exact bytes, and its readable rendering. */
export type SpanExt = 'json' | 'md';

const HEX64 = /^[0-9a-f]{64}$/;
const ELIDED_NAME = /^([0-9a-f]{64})\.(txt|json)$/;
const CONVERSATION_NAME = /^([0-9a-f]{64})\.json$/;
const SEAL_RECORD_NAME = /^([0-9a-f]{64})\.seal\.json$/;
// writeFileDurable stages `<target>.<digits>`, which write-file-atomic writes through its own
// temp file `<staged>.<uint32 in decimal>`: a kill can leave either one behind.
const TEMP_LEFTOVER = /^.+\.(?:txt|json|md)(?:\.\d+){1,2}$/;

/** Whether `value` is 64 lowercase hex digits (a sha256 or a conversation key). */
export function isHex64(value: string): boolean {
  return HEX64.test(value);
}

/** The sha256 and extension of an elided file's name, or undefined for any other name. */
export function parseElidedName(name: string): { sha256: string; ext: ElidedExt } | undefined {
  const match = ELIDED_NAME.exec(name);
  if (match === null) return undefined;
  return { sha256: match[1] as string, ext: match[2] as ElidedExt };
}

/** The sha256 of a seal record's file name (`<sha256>.seal.json`), or undefined for any other name. */
export function parseSealRecordName(name: string): string | undefined {
  return SEAL_RECORD_NAME.exec(name)?.[1];
}

/** The key of a conversation record's file name, or undefined for any other name. */
export function parseConversationName(name: string): string | undefined {
  return CONVERSATION_NAME.exec(name)?.[1];
}

/** Whether `name` is a staging or temp file a killed write left behind (readers skip these). */
export function isTempLeftover(name: string): boolean {
  return TEMP_LEFTOVER.test(name);
}

/** An opened state directory: the absolute paths of its parts. */
export interface StateDir {
  readonly root: string;
  readonly conversationsDir: string;
  readonly elidedDir: string;
  readonly spansDir: string;
  /** Where removed thinking blocks' exact bytes go (docs/rescue.md, "Preserved thinking"). */
  readonly thinkingDir: string;
  /** Where sealed blocks' files go: outside elided/, so no read grant covers them. */
  readonly sealedDir: string;
  readonly wirePath: string;
  readonly lockPath: string;
}

/** The paths of a state directory's parts, given its absolute root. */
export function layoutPaths(root: string): StateDir {
  return {
    root,
    conversationsDir: path.join(root, CONVERSATIONS_DIR_NAME),
    elidedDir: path.join(root, ELIDED_DIR_NAME),
    spansDir: path.join(root, SPANS_DIR_NAME),
    thinkingDir: path.join(root, THINKING_DIR_NAME),
    sealedDir: path.join(root, SEALED_DIR_NAME),
    wirePath: path.join(root, WIRE_FILE_NAME),
    lockPath: path.join(root, LOCK_DIR_NAME),
  };
}

/** The path of an elided file; refuses a name that is not a sha256, so nothing escapes elided/. */
export function elidedPath(state: StateDir, sha256: string, ext: ElidedExt): string {
  if (!isHex64(sha256)) throw badName('sha256', sha256);
  return path.join(state.elidedDir, `${sha256}.${ext}`);
}

/** The path of a span's file; refuses a name that is not a sha256, so nothing escapes spans/. */
export function spanPath(state: StateDir, sha256: string, ext: SpanExt): string {
  if (!isHex64(sha256)) throw badName('sha256', sha256);
  return path.join(state.spansDir, `${sha256}.${ext}`);
}

/** The path of a removed thinking block's file; refuses a name that is not a sha256, so nothing escapes thinking/. */
export function thinkingPath(state: StateDir, sha256: string): string {
  if (!isHex64(sha256)) throw badName('sha256', sha256);
  return path.join(state.thinkingDir, `${sha256}.json`);
}

/** The path of a sealed block's file (same name as it had in elided/); refuses a name that is not a sha256. */
export function sealedPath(state: StateDir, sha256: string, ext: ElidedExt): string {
  if (!isHex64(sha256)) throw badName('sha256', sha256);
  return path.join(state.sealedDir, `${sha256}.${ext}`);
}

/** The path of the record of a block's seal; refuses a name that is not a sha256. */
export function sealRecordPath(state: StateDir, sha256: string): string {
  if (!isHex64(sha256)) throw badName('sha256', sha256);
  return path.join(state.sealedDir, `${sha256}.seal.json`);
}

/** The path of a conversation's record; refuses a key that is not 64 lowercase hex digits. */
export function conversationPath(state: StateDir, key: string): string {
  if (!isHex64(key)) throw badName('conversation key', key);
  return path.join(state.conversationsDir, `${key}.json`);
}

function badName(what: string, value: string): StateError {
  const shown = JSON.stringify(value.slice(0, 80));
  return new StateError('STATE_BAD_NAME', `${what} must be 64 lowercase hex digits, got ${shown}`);
}
