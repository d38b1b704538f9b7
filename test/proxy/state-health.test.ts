import { describe, expect, it } from 'vitest';
import { StateHealth } from '../../src/proxy/state-health.js';

function recording(): { health: StateHealth; notes: string[] } {
  const notes: string[] = [];
  const health = new StateHealth(
    async (note) => {
      notes.push(note.note);
    },
    () => '2026-11-30T00:00:00.000Z',
  );
  return { health, notes };
}

describe('StateHealth', () => {
  it('should note a failure once and the recovery once', () => {
    // Arrange
    const { health, notes } = recording();

    // Act
    health.failed(new Error('ENOSPC'));
    health.failed(new Error('ENOSPC'));
    health.succeeded();
    health.succeeded();

    // Assert
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
    expect(health.failing).toBe(false);
  });

  it('should not let a success marked before a later failure undo it (a batched wire line)', () => {
    // Arrange: a failure, then a write started, then another failure before the write reports.
    const { health, notes } = recording();
    health.failed(new Error('ENOSPC'));
    const mark = health.mark;
    health.failed(new Error('ENOSPC'));

    // Act
    health.succeeded(mark);
    const stillFailing = health.failing;
    health.succeeded(health.mark);

    // Assert
    expect(stillFailing).toBe(true);
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
  });
});
