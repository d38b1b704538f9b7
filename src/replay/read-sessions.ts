/**
 * The edge that reads transcripts: a `.jsonl` file is a session, with its subagent files
 * (`<session>/subagents/*.jsonl`) when they are beside it; a folder is every session in it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { rebuildConversations, type RebuiltConversation } from './rebuild-conversations.js';

/** One session's conversations, rebuilt. */
export interface SessionInput {
  readonly file: string;
  readonly conversations: RebuiltConversation[];
}

/** Expands the arguments into sessions, in the order given (a folder's sessions sorted by name). */
export async function readSessions(paths: readonly string[]): Promise<SessionInput[]> {
  const files: string[] = [];
  for (const p of paths) {
    const stat = await fs.stat(p);
    if (stat.isDirectory()) {
      const names = (await fs.readdir(p)).filter((n) => n.endsWith('.jsonl')).sort();
      files.push(...names.map((n) => path.join(p, n)));
    } else {
      files.push(p);
    }
  }
  const sessions: SessionInput[] = [];
  for (const file of files) {
    const conversations = rebuildConversations(await readLines(file), path.basename(file));
    const subDir = path.join(path.dirname(file), path.basename(file, '.jsonl'), 'subagents');
    const subs = await fs.readdir(subDir).catch(() => [] as string[]);
    for (const name of subs.filter((n) => n.endsWith('.jsonl')).sort()) {
      conversations.push(...rebuildConversations(await readLines(path.join(subDir, name)), `subagents/${name}`));
    }
    sessions.push({ file, conversations });
  }
  return sessions;
}

async function readLines(file: string): Promise<string[]> {
  return (await fs.readFile(file, 'utf8')).split('\n');
}
