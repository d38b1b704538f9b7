/** The transcript fixtures, read for tests. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of a fixture transcript. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/transcripts/${name}`, import.meta.url));
}

/** A fixture's lines. */
export function fixtureLines(name: string): string[] {
  return fs.readFileSync(fixturePath(name), 'utf8').split('\n');
}

/** One transcript line of the shape Claude Code writes. */
export function line(record: Record<string, unknown>): string {
  return JSON.stringify({ isSidechain: false, timestamp: '2026-02-10T22:57:54.684Z', ...record });
}

/** An assistant record: one content block of message `id`. */
export function assistant(id: string, block: unknown, usage: Record<string, unknown> = {}, timestamp = '2026-02-10T22:58:00.000Z'): string {
  return line({
    type: 'assistant',
    timestamp,
    message: {
      model: 'claude-opus-4-6',
      id,
      role: 'assistant',
      content: [block],
      usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, output_tokens: 10, ...usage },
    },
  });
}

/** A user record. */
export function user(content: unknown): string {
  return line({ type: 'user', message: { role: 'user', content } });
}
