import { describe, expect, it } from 'vitest';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { KeyMemo } from '../../src/core/key-memo.js';
import { sha256, utf8 } from './bodies.js';

const FIRST = {
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
    { type: 'text', text: 'Fix the bug.' },
  ],
};
const body = (messages: unknown[]): Uint8Array => utf8(JSON.stringify({ model: 'm', messages }));
const TURN_1 = body([FIRST]);
const TURN_2 = body([FIRST, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }]);

type Input = { agentId: string | undefined; sessionId: string | undefined };
const keyOf = (bytes: Uint8Array, input: Input, keys?: KeyMemo): string | undefined => {
  const lookup = MESSAGES_API.key(bytes, keys === undefined ? input : { ...input, keys }, sha256);
  return lookup.kind === 'found' ? lookup.key : undefined;
};

describe('KeyMemo', () => {
  it('should give the key the long way makes, for every agent and session, turn after turn', () => {
    const keys = new KeyMemo();
    const inputs: Input[] = [
      { agentId: undefined, sessionId: undefined },
      { agentId: 'a1', sessionId: undefined },
      { agentId: undefined, sessionId: 's1' },
      { agentId: 'a1', sessionId: 's1' },
    ];

    for (const bytes of [TURN_1, TURN_2, TURN_1]) {
      for (const input of inputs) expect(keyOf(bytes, input, keys)).toBe(keyOf(bytes, input));
    }
    expect(new Set(inputs.map((input) => keyOf(TURN_2, input, keys))).size).toBe(4);
  });

  it('should make the key again for other bytes of a first message, even ones with the same canonical form', () => {
    const keys = new KeyMemo();
    let made = 0;
    const counting = (bytes: Uint8Array): string => {
      const first = { start: bytes.indexOf(0x5b) + 1, end: bytes.lastIndexOf(0x5d) };
      return keys.keyOf(bytes, first, { agentId: undefined, sessionId: undefined }, sha256, () => `key-${++made}`);
    };

    expect([counting(TURN_1), counting(TURN_1), counting(body([{ ...FIRST, extra: 1 }]))]).toEqual(['key-1', 'key-1', 'key-2']);
  });

  it('should keep nothing when the long way throws', () => {
    const keys = new KeyMemo();
    const span = { start: 0, end: 3 };
    const bytes = utf8('{x}');

    expect(() => keys.keyOf(bytes, span, { agentId: undefined, sessionId: undefined }, sha256, () => JSON.parse('{x}') as string)).toThrow();
    expect(keys.keyOf(bytes, span, { agentId: undefined, sessionId: undefined }, sha256, () => 'made')).toBe('made');
  });
});
