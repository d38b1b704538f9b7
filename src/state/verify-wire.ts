/** verify, part 3: every complete line of the wire log is JSON. */
import fs from 'node:fs/promises';
import { WIRE_FILE_NAME, type StateDir } from './layout.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';
import { WIRE_TORN_MARKER } from './wire-log.js';

/**
 * Checks `wire.jsonl`. A final line without its newline is what a crash mid-append leaves, and
 * a torn line followed by WireLog's marker was closed by a restarted proxy: both are notes.
 */
export async function verifyWire(state: StateDir, findings: Findings): Promise<void> {
  const stat = await fs.lstat(state.wirePath);
  if (!checkKind(stat, 'file', WIRE_FILE_NAME, findings)) return;
  checkPrivate(stat, WIRE_FILE_NAME, findings);
  const lines = (await fs.readFile(state.wirePath, 'utf8')).split('\n');
  // After the last newline: '' when the file ends cleanly, else a line still being (or never) finished.
  const partial = lines.pop() ?? '';
  if (partial !== '') {
    findings.notes.push(`${WIRE_FILE_NAME}: line ${lines.length + 1}, the last, is incomplete (a crash mid-append)`);
  }
  lines.forEach((line, index) => {
    if (parses(line)) return;
    const where = `${WIRE_FILE_NAME}: line ${index + 1}`;
    if (isTornMarker(lines[index + 1])) findings.notes.push(`${where} was cut short by a crash and closed later`);
    else findings.problems.push(`${where} is not valid JSON`);
  });
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function isTornMarker(line: string | undefined): boolean {
  if (line === undefined) return false;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return false;
    return (value as Record<string, unknown>)['ctxshed'] === WIRE_TORN_MARKER.ctxshed;
  } catch {
    return false;
  }
}
