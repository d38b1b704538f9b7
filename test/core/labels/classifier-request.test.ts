import { describe, expect, it } from 'vitest';
import { buildClassifierRequest, CHUNK_HEAD_MAX_CHARS, CLASSIFIER_LABELS, selectClassifierChunks } from '../../../src/core/labels/classifier-request.js';
import { labelBlocks } from '../../../src/core/labels/label-blocks.js';
import { sha256 } from '../bodies.js';
import { session } from './rules.js';
import { bash, bulk, read } from './session-body.js';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

function chunksOf(calls: Parameters<typeof session>[0]) {
  const s = session(calls);
  return selectClassifierChunks(s.plan, labelBlocks({ body: s.body, index: s.index, candidates: s.plan, sha256 }));
}

describe('selectClassifierChunks', () => {
  it('should send only chunks no rule decided, with a header naming the call', () => {
    // Arrange
    const calls = [
      read('/a.ts', bulk(3000, 1)), // superseded by 2
      bash('npm test', bulk(3000, 2)),
      read('/a.ts', bulk(3000, 3)),
      bash('cat .env', `${bulk(1500, 4)}\nSTRIPE_KEY=${SECRET}\n`), // a secret
    ];

    // Act
    const chunks = chunksOf(calls);

    // Assert
    expect(chunks.map((c) => [c.id, c.header])).toEqual([
      ['toolu_1', 'Bash#1 npm test'],
      ['toolu_2', 'Read#2 /a.ts'],
    ]);
  });

  it(`should send at most ${CHUNK_HEAD_MAX_CHARS} characters of each chunk`, () => {
    // Arrange, Act
    const [chunk] = chunksOf([bash('make', bulk(50_000, 1))]);

    // Assert
    expect(Array.from(chunk?.head ?? '')).toHaveLength(CHUNK_HEAD_MAX_CHARS);
    expect(chunk?.head.startsWith(bulk(50_000, 1).slice(0, 100))).toBe(true);
  });

  it('should redact up to two uncertain findings, and keep a chunk with more at home', () => {
    // Arrange
    const two = `${bulk(1500, 1)} owner ana@personal.io, reviewer bo@personal.io`;
    const three = `${two}, cc cy@personal.io`;

    // Act
    const chunks = chunksOf([bash('a', two), bash('b', three)]);

    // Assert
    expect(chunks.map((c) => c.id)).toEqual(['toolu_0']);
    expect(chunks[0]?.head).toContain('owner [redacted], reviewer [redacted]');
  });

  it('should find a key that straddles the cut, not send its first half', () => {
    // Arrange: a random 60-character run starting 20 characters before the cut.
    const key = 'Xq7Lm2Pz9Rt4Kv8Wn3Bc6Hd1Jf5Gs0Ya2Ue7Io4Nl9Mk3Qb8Vx6Tz1Cr5Ep0';
    const text = `${'a '.repeat((CHUNK_HEAD_MAX_CHARS - 20) / 2)}${key} ${bulk(2000, 2)}`;

    // Act
    const [chunk] = chunksOf([bash('x', text)]);

    // Assert
    expect(chunk?.head).not.toContain(key.slice(0, 10));
  });
});

describe('buildClassifierRequest', () => {
  it('should ask the given model, with the three labels in full, the task and the chunks', () => {
    // Arrange
    const chunks = [{ id: 'toolu_1', header: 'Bash#1 npm test', head: 'PASS 12 tests' }];

    // Act
    const request = JSON.parse(buildClassifierRequest({ model: 'claude-haiku-4-5', task: 'fix a double charge in the retry path', chunks })) as Record<
      string,
      unknown
    >;
    const messages = request['messages'] as Array<{ role: string; content: string }>;
    const question = JSON.parse(messages[0]?.content ?? '') as Record<string, unknown>;

    // Assert
    expect(request['model']).toBe('claude-haiku-4-5');
    expect(request['max_tokens']).toBe(128 + 64);
    expect(request['temperature']).toBe(0);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    expect(question['labels']).toEqual([CLASSIFIER_LABELS.keep, CLASSIFIER_LABELS.drop, CLASSIFIER_LABELS.pointer]);
    expect(question['task']).toBe('fix a double charge in the retry path');
    expect(question['instructions']).toContain(
      'The current task is: fix a double charge in the retry path. Judge each chunk only by whether its exact text is needed to finish it.',
    );
    expect(question['chunks']).toEqual(chunks);
    expect(String(request['system'])).toContain(JSON.stringify(CLASSIFIER_LABELS.pointer));
  });

  it('should name the labels as the seed does, never shortened', () => {
    expect(Object.values(CLASSIFIER_LABELS)).toEqual([
      'keep in context, the current task needs the exact text',
      'drop, it is noise or already superseded',
      'replace with a pointer, it can be fetched again if needed',
    ]);
  });
});
