import { describe, expect, it } from 'vitest';
import { StateHealth } from '../../src/proxy/state-health.js';
import { StoreError } from '../../src/store/index.js';

function recording(): { health: StateHealth; notes: string[]; lines: string[]; failures: () => number } {
  const notes: string[] = [];
  const lines: string[] = [];
  let failures = 0;
  const health = new StateHealth(
    async (note) => {
      notes.push(note.note);
    },
    () => '2026-11-30T00:00:00.000Z',
    { log: (line) => lines.push(line), countFailure: () => failures++ },
  );
  return { health, notes, lines, failures: () => failures };
}

const ENOSPC = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('StateHealth', () => {
  it('should say the database cannot be reached, not that a directory cannot be written, when the store is unavailable', () => {
    // Arrange
    const { health, notes, lines } = recording();
    const lost = new StoreError(
      'STORE_UNAVAILABLE',
      'the store postgres://gw@db/ctxshed is unavailable: nothing accepts connections at its address (connect ECONNREFUSED)',
    );

    // Act
    health.failed(lost);
    health.succeeded('store');

    // Assert
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
    expect(lines).toEqual([
      'ctxshed: the store postgres://gw@db/ctxshed is unavailable: nothing accepts connections at its address (connect ECONNREFUSED); requests pass through unchanged until it answers',
      'ctxshed: the store answers again',
    ]);
  });

  it('should note a failure once and the recovery once, each with one stderr line, and count every failure', () => {
    // Arrange
    const { health, notes, lines, failures } = recording();

    // Act
    health.failed(ENOSPC);
    health.failed(ENOSPC);
    health.succeeded('store');
    health.succeeded('store');

    // Assert
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
    expect(lines).toEqual([
      expect.stringMatching(/^ctxshed: the state directory cannot be written \(.*ENOSPC.*\)/),
      'ctxshed: the state directory is writable again',
    ]);
    expect(failures()).toBe(2);
    expect(health.failing).toBe(false);
  });

  it('should not call the store writable again because a wire line still fit (the notes flapped on a full disk)', () => {
    // Arrange: every latch fails while the small wire lines and count_tokens records still go in.
    const { health, notes, lines } = recording();

    // Act
    for (let turn = 0; turn < 5; turn++) {
      health.failed(ENOSPC, 'store');
      health.succeeded('wire', health.mark);
    }
    const during = health.failing;
    health.succeeded('store');

    // Assert
    expect(during).toBe(true);
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
    expect(lines).toHaveLength(2);
  });

  it('should stay unavailable until each kind of write that failed has worked again', () => {
    // Arrange
    const { health, notes } = recording();
    health.failed(ENOSPC, 'wire');
    health.failed(ENOSPC, 'store');

    // Act
    health.succeeded('wire', health.mark);
    const afterWire = health.failing;
    health.succeeded('store');

    // Assert
    expect(afterWire).toBe(true);
    expect(health.failing).toBe(false);
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
  });

  it('should not let a success marked before a later failure undo it (a batched wire line)', () => {
    // Arrange: a failure, then a write started, then another failure before the write reports.
    const { health, notes } = recording();
    health.failed(ENOSPC, 'wire');
    const mark = health.mark;
    health.failed(ENOSPC, 'wire');

    // Act
    health.succeeded('wire', mark);
    const stillFailing = health.failing;
    health.succeeded('wire', health.mark);

    // Assert
    expect(stillFailing).toBe(true);
    expect(notes).toEqual(['state_unavailable', 'state_recovered']);
  });
});
