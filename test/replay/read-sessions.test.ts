import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSessionFiles, readSession, readSessions } from '../../src/replay/read-sessions.js';
import { assistant, user } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  // ~/.claude/projects in small: two projects, a session with a subagent, a note that is no transcript
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'read-sessions-'));
  const transcript = [user('q'), assistant('msg_1', { type: 'text', text: 'a' })].join('\n');
  await fs.mkdir(path.join(dir, '-home-me-a', 's1', 'subagents'), { recursive: true });
  await fs.mkdir(path.join(dir, '-home-me-b'), { recursive: true });
  await fs.writeFile(path.join(dir, '-home-me-a', 's1.jsonl'), transcript);
  await fs.writeFile(path.join(dir, '-home-me-a', 's1', 'subagents', 'agent-x.jsonl'), transcript.replace('msg_1', 'msg_2'));
  await fs.writeFile(path.join(dir, '-home-me-b', 's2.jsonl'), transcript.replace('msg_1', 'msg_3'));
  await fs.writeFile(path.join(dir, '-home-me-b', 'notes.txt'), 'not a transcript');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('listSessionFiles', () => {
  it('should walk folders below when recursive, leaving subagent files to their session', async () => {
    // Act
    const files = await listSessionFiles([dir], true);

    // Assert
    expect(files.map((f) => path.relative(dir, f))).toEqual([path.join('-home-me-a', 's1.jsonl'), path.join('-home-me-b', 's2.jsonl')]);
  });

  it('should read only the folder itself when not recursive, and take files as given', async () => {
    // Act / Assert
    expect(await listSessionFiles([dir], false)).toEqual([]);
    expect(await listSessionFiles([path.join(dir, '-home-me-b', 'notes.txt')], false)).toEqual([path.join(dir, '-home-me-b', 'notes.txt')]);
  });

  it('should refuse a path that does not exist', async () => {
    // Act / Assert
    await expect(listSessionFiles([path.join(dir, 'nope')], true)).rejects.toThrow(/ENOENT/);
  });
});

describe('readSession', () => {
  it('should read a session with the subagent files beside it', async () => {
    // Act
    const session = await readSession(path.join(dir, '-home-me-a', 's1.jsonl'));

    // Assert
    expect(session.conversations.map((c) => [c.id, c.requests[0]?.id])).toEqual([
      ['s1.jsonl#1', 'msg_1'],
      ['subagents/agent-x.jsonl#1', 'msg_2'],
    ]);
  });
});

describe('readSessions', () => {
  it('should read every session of a folder', async () => {
    // Act
    const sessions = await readSessions([path.join(dir, '-home-me-b')]);

    // Assert
    expect(sessions.map((s) => path.basename(s.file))).toEqual(['s2.jsonl']);
  });
});
