import { describe, expect, it } from 'vitest';
import { isSideCall, mayLatchOnThreshold, readRequestClass, REQUEST_CLASSES } from '../../src/core/request-class.js';

describe('readRequestClass', () => {
  it('should read each class Claude Code 2.1.332 sends, case- and space-blind', () => {
    for (const cls of REQUEST_CLASSES) expect(readRequestClass(` ${cls.toUpperCase()} `, undefined)).toBe(cls);
  });

  it('should name a value it does not know unknown, and a compaction header alone compaction', () => {
    expect(readRequestClass('background_agent', undefined)).toBe('unknown');
    expect(readRequestClass(undefined, 'auto')).toBe('compaction');
    expect(readRequestClass(undefined, undefined)).toBeUndefined();
  });

  it('should let only main, subagent, workflow, unknown and unnamed requests latch on the threshold', () => {
    expect(REQUEST_CLASSES.filter((c) => mayLatchOnThreshold(c))).toEqual(['main', 'subagent', 'workflow']);
    expect(mayLatchOnThreshold('unknown')).toBe(true);
    expect(mayLatchOnThreshold(undefined)).toBe(true);
    expect(REQUEST_CLASSES.filter((c) => isSideCall(c))).toEqual(['auxiliary', 'side_reply']);
  });
});
