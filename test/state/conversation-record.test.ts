import { describe, expect, it } from 'vitest';
import { CONVERSATION_FORMAT, parseConversationRecord, serializeConversationRecord } from '../../src/state/conversation-record.js';
import { blockFor, epochOf, keyOf, recordOf } from './fixtures/state-fixtures.js';

const KEY = keyOf('a');
const RECORD = recordOf(KEY, [epochOf(1, [blockFor('x'.repeat(2000), 3).block])]);

describe('serializeConversationRecord', () => {
  it('should pretty-print with 2 spaces and end with a newline', () => {
    const text = Buffer.from(serializeConversationRecord(RECORD)).toString('utf8');
    expect(text).toBe(`${JSON.stringify(RECORD, null, 2)}\n`);
    expect(text.startsWith(`{\n  "format": "${CONVERSATION_FORMAT}",\n  "key": "${KEY}",`)).toBe(true);
  });
});

describe('parseConversationRecord', () => {
  it('should read back what serializeConversationRecord wrote', () => {
    const text = Buffer.from(serializeConversationRecord(RECORD)).toString('utf8');
    expect(parseConversationRecord(text, KEY, 'f.json')).toEqual(RECORD);
  });

  it('should throw STATE_BAD_RECORD naming the file for text that is not JSON', () => {
    expect(() => parseConversationRecord('{"format":', KEY, 'conversations/f.json')).toThrow(
      expect.objectContaining({ code: 'STATE_BAD_RECORD', message: expect.stringContaining('conversations/f.json') }),
    );
  });

  it('should throw STATE_BAD_RECORD when the key does not match the file name', () => {
    const text = JSON.stringify(RECORD);
    expect(() => parseConversationRecord(text, keyOf('other'), 'f.json')).toThrow(
      expect.objectContaining({ code: 'STATE_BAD_RECORD', message: expect.stringContaining('does not match its file name') }),
    );
  });
});
