/** verify, part 3: every complete line of the wire log is JSON. */
import fs from 'node:fs/promises';
import { WIRE_FILE_NAME, type StateDir } from './layout.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';
import { WIRE_DISK_FULL_MARKER, WIRE_TORN_MARKER } from './wire-log.js';

/**
 * Checks `wire.jsonl`. A final line without its newline is what a crash mid-append leaves, and
 * a torn line followed by WireLog's marker was closed later: by a restarted proxy after a crash,
 * or by the same one once a full disk had room again (its marker says which). All are notes.
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
    const repair = tornMarkerOf(lines[index + 1]);
    if (repair === 'disk_full') findings.notes.push(`${where} was cut short because the disk was full, and closed later`);
    else if (repair === 'crash') findings.notes.push(`${where} was cut short by a crash and closed later`);
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

/** What a torn-line marker says cut the line above it short, or undefined when `line` is none. */
function tornMarkerOf(line: string | undefined): 'crash' | 'disk_full' | undefined {
  if (line === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const fields = value as Record<string, unknown>;
    if (fields['ctxshed'] !== WIRE_TORN_MARKER.ctxshed) return undefined;
    return fields['cause'] === WIRE_DISK_FULL_MARKER.cause ? 'disk_full' : 'crash';
  } catch {
    return undefined;
  }
}
