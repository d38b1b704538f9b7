/**
 * The edge that reads transcripts: a `.jsonl` file is a session, with its subagent files
 * (`<session>/subagents/*.jsonl`) when they are beside it; a folder is every session in it (with
 * `recursive`, in every folder below it too, as in `~/.claude/projects`).
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkTranscript, notTranscriptMessage } from './check-transcript.js';
import { rebuildConversations, type RebuiltConversation } from './rebuild-conversations.js';
import { markEstimated, stitchTranscript, type StitchedBoundary } from './stitch-transcript.js';

/** One session's conversations, rebuilt; and its history stitched as if the client never compacted. */
export interface SessionInput {
  readonly file: string;
  readonly conversations: RebuiltConversation[];
  readonly stitched: { readonly conversations: RebuiltConversation[]; readonly boundaries: readonly StitchedBoundary[] };
  /** Lines of the session file that are not JSON records (never skipped in silence), and the first of them. */
  readonly skippedLines: { readonly lines: number; readonly firstLine?: number };
}

/** A path that holds no transcript: the CLI names it and exits 2. */
export class TranscriptInputError extends Error {
  override readonly name = 'TranscriptInputError';
}

/** A session's subagent and compaction files live here; they are read with their session. */
const SUBAGENTS_DIR = 'subagents';

/**
 * Expands the arguments into sessions, in the order given (a folder's sessions sorted by name; its
 * sub-folders walked when it has none of its own, as `~/.claude/projects`). A named file that is
 * not a transcript, a missing path or a folder without one throws `TranscriptInputError`; a file
 * found in a folder that is not a transcript is passed to `onSkipped` and left out.
 */
export async function readSessions(paths: readonly string[], onSkipped: (message: string) => void = () => {}): Promise<SessionInput[]> {
  const sessions: SessionInput[] = [];
  for (const p of paths) {
    const stat = await fs.stat(p).catch(() => undefined);
    if (stat === undefined) throw new TranscriptInputError(`${p}: no such file or folder`);
    if (!stat.isDirectory()) {
      sessions.push(await readSession(p));
      continue;
    }
    const direct = (await jsonlIn(p, false)).sort();
    const files = direct.length > 0 ? direct : (await jsonlIn(p, true)).sort();
    if (files.length === 0) throw new TranscriptInputError(`${p} holds no .jsonl transcript`);
    const before = sessions.length;
    for (const file of files) {
      try {
        sessions.push(await readSession(file));
      } catch (error) {
        if (!(error instanceof TranscriptInputError)) throw error;
        onSkipped(error.message);
      }
    }
    if (sessions.length === before) throw new TranscriptInputError(`${p} holds no Claude Code transcript (${files.length} .jsonl file(s), none a transcript)`);
  }
  return sessions;
}

/**
 * The session files the arguments name: files as given, folders' `.jsonl` files sorted by path.
 * `recursive` walks folders below too, except `subagents` folders (read with their session) and
 * symbolic links to folders (a link cycle would never end).
 */
export async function listSessionFiles(paths: readonly string[], recursive: boolean): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    const stat = await fs.stat(p);
    if (stat.isDirectory()) files.push(...(await jsonlIn(p, recursive)).sort());
    else files.push(p);
  }
  return files;
}

/** One session file and the subagent files beside it, rebuilt. */
export async function readSession(file: string): Promise<SessionInput> {
  const lines = await readLines(file);
  const check = checkTranscript(lines);
  if (!check.ok) throw new TranscriptInputError(notTranscriptMessage(file, check));
  const conversations = rebuildConversations(lines, path.basename(file));
  const stitch = stitchTranscript(lines);
  const stitched =
    stitch.boundaries.length === 0 ? [...conversations] : markEstimated(rebuildConversations(stitch.lines, path.basename(file)), stitch.boundaries);
  const subDir = path.join(path.dirname(file), path.basename(file, '.jsonl'), SUBAGENTS_DIR);
  const subs = await fs.readdir(subDir).catch(() => [] as string[]);
  for (const name of subs.filter((n) => n.endsWith('.jsonl')).sort()) {
    const sub = rebuildConversations(await readLines(path.join(subDir, name)), `${SUBAGENTS_DIR}/${name}`);
    conversations.push(...sub);
    stitched.push(...sub);
  }
  return { file, conversations, stitched: { conversations: stitched, boundaries: stitch.boundaries }, skippedLines: check.skipped };
}

async function jsonlIn(dir: string, recursive: boolean): Promise<string[]> {
  const out: string[] = [];
  const entries: Dirent[] = await fs.readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive && entry.name !== SUBAGENTS_DIR) out.push(...(await jsonlIn(full, true)));
    } else if (entry.name.endsWith('.jsonl') && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(full))))) {
      out.push(full);
    }
  }
  return out;
}

async function isFile(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function readLines(file: string): Promise<string[]> {
  return (await fs.readFile(file, 'utf8')).split('\n');
}
