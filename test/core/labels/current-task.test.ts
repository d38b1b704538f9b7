import { describe, expect, it } from 'vitest';
import { currentTask, TASK_MAX_CHARS } from '../../../src/core/labels/current-task.js';
import { mustIndex, utf8 } from '../bodies.js';

function task(messages: unknown[]): string {
  const body = utf8(JSON.stringify({ model: 'm', messages }));
  return currentTask(body, mustIndex(body));
}

describe('currentTask', () => {
  it('should take the latest user prompt, skipping tool results and assistant turns', () => {
    expect(
      task([
        { role: 'user', content: 'First, look around.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'a b' }] },
        { role: 'user', content: [{ type: 'text', text: 'Fix the double charge in the retry path.' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u', content: 'a b' }] },
      ]),
    ).toBe('Fix the double charge in the retry path.');
  });

  it("should leave out the client's system reminders, and skip a message made only of them", () => {
    expect(
      task([
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>Today is a day.</system-reminder>\nRename the module.' }] },
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nfiles changed\n</system-reminder>' }] },
      ]),
    ).toBe('Rename the module.');
  });

  it('should redact the task and cut it short', () => {
    // Arrange
    const long = `Use Bearer tok_9f2a7c31d4 to call it. ${'x'.repeat(600)}`;

    // Act
    const got = task([{ role: 'user', content: long }]);

    // Assert
    expect(got.startsWith('Use Bearer [redacted] to call it.')).toBe(true);
    expect(Array.from(got)).toHaveLength(TASK_MAX_CHARS);
  });

  it('should give an empty task when no user message has text', () => {
    expect(task([{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }])).toBe('');
  });
});
