/**
 * The edge that reads transcripts: a `.jsonl` file is a session, with its subagent files
 * (`<session>/subagents/*.jsonl`) when they are beside it; a folder is every session in it (with
 * `recursive`, in every folder below it too, as in `~/.claude/projects`).
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { rebuildConversations, type RebuiltConversation } from './rebuild-conversations.js';
import { markEstimated, stitchTranscript, type StitchedBoundary } from './stitch-transcript.js';

/** One session's conversations, rebuilt; and its history stitched as if the client never compacted. */
export interface SessionInput {
  readonly file: string;
  readonly conversations: RebuiltConversation[];
  readonly stitched: { readonly conversations: RebuiltConversation[]; readonly boundaries: readonly StitchedBoundary[] };
}

/** A session's subagent and compaction files live here; they are read with their session. */
const SUBAGENTS_DIR = 'subagents';

/** Expands the arguments into sessions, in the order given (a folder's sessions sorted by name). */
export async function readSessions(paths: readonly string[]): Promise<SessionInput[]> {
  const sessions: SessionInput[] = [];
  for (const file of await listSessionFiles(paths, false)) sessions.push(await readSession(file));
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
  return { file, conversations, stitched: { conversations: stitched, boundaries: stitch.boundaries } };
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
