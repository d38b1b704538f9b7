import { describe, expect, it } from 'vitest';
import { describeInput, refetchFor } from '../../../src/core/labels/describe-call.js';

describe('refetchFor', () => {
  it.each(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch'])('should send %s back to the same call', (tool) => {
    expect(refetchFor(tool)).toBe('same-call');
    expect(refetchFor(tool, { restoreTool: true })).toBe('same-call');
  });

  it.each(['Bash', 'Edit', 'Task', 'mcp__x__y', 'unknown'])('should send %s to the elided file, or to restore when it is offered', (tool) => {
    expect(refetchFor(tool)).toBe('elided-file');
    expect(refetchFor(tool, { restoreTool: false })).toBe('elided-file');
    expect(refetchFor(tool, { restoreTool: true })).toBe('restore');
  });
});

describe('describeInput', () => {
  it('should give an empty text for a call without a main input', () => {
    expect(describeInput(undefined)).toBe('');
  });

  it('should redact before it cuts, so no piece of a secret survives the cut', () => {
    // Arrange: the token starts before character 160 and ends after it.
    const command = `${'x'.repeat(120)} -H 'Authorization: Bearer tok_9f2a7c31d4abcdef'`;

    // Act
    const described = describeInput(command);

    // Assert
    expect(described).not.toContain('tok_');
    expect(Array.from(described).length).toBeLessThanOrEqual(160);
  });
});
