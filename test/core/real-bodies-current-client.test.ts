/**
 * The core over request bodies of the current Claude Code release (test/fixtures/real/2.1.328,
 * captured by test/real-client/capture-bodies.ts): its shapes differ from 2.1.197's, and every
 * rewrite must still inflate back byte for byte and pass the Messages API validator.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conversationKey } from '../../src/core/conversation-key.js';
import { DEFAULT_POLICY } from '../../src/core/plan-elision.js';
import { validateMessagesRequest } from '../support/messages-validator.js';
import { mustIndex, sha256 } from './bodies.js';
import { roundTrip } from './round-trip.js';

const DIR = fileURLToPath(new URL('../fixtures/real/2.1.328/', import.meta.url));
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const ELIDE_ALL = { keepRecent: 0, minBytes: 0 };

function load(file: string): Uint8Array {
  return new Uint8Array(readFileSync(`${DIR}${file}`));
}

interface Shape {
  model: string;
  thinking: { type: string };
  messages: Array<{ role: string; content: unknown; output_config?: unknown }>;
}

describe('the core on Claude Code 2.1.328 bodies', () => {
  it('should hold the first request and a later one with tool results and thinking blocks', () => {
    const [first, last] = FILES.map((f) => JSON.parse(readFileSync(`${DIR}${f}`, 'utf8')) as Shape);
    expect(FILES).toEqual(['01-main-first.json', '09-main-last.json']);
    // Today's shapes: the default model with adaptive thinking, and a role:"system" message right
    // after the first prompt carrying a message-level output_config.
    expect(first!.model).toBe('claude-opus-5-5');
    expect(first!.thinking.type).toBe('adaptive');
    expect(first!.messages.map((m) => m.role)).toEqual(['user', 'system']);
    expect(first!.messages[1]!.output_config).toEqual({ effort: 'medium' });
    const blocks = last!.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string }>) : []));
    expect(blocks.filter((b) => b.type === 'thinking').length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.type === 'tool_result').length).toBeGreaterThan(5);
  });

  it.each(FILES)('should round trip %s with the default policy and with every block elided', (file) => {
    const body = load(file);

    const { output } = roundTrip(body, DEFAULT_POLICY);
    const all = roundTrip(body, ELIDE_ALL);

    expect(validateMessagesRequest(body)).toEqual([]);
    expect(validateMessagesRequest(output)).toEqual([]);
    expect(validateMessagesRequest(all.output)).toEqual([]);
  });

  it('should give both requests one conversation key', () => {
    const keys = new Set(FILES.map((f) => conversationKey(load(f), mustIndex(load(f)), undefined, sha256)));

    expect(keys.size).toBe(1);
  });
});
