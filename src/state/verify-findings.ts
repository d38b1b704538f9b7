/** What verify collects as it walks the state directory, and its check of file modes. */
import type { Stats } from 'node:fs';
import { fileKindOf } from './file-kind.js';
import { DIR_MODE, FILE_MODE } from './layout.js';

/** Problems make verify fail; notes are things a crash or a live process leaves, and are fine. */
export interface Findings {
  readonly problems: string[];
  readonly notes: string[];
}

/** Counts of what verify looked at. */
export interface VerifyCounts {
  elided: number;
  conversations: number;
  epochs: number;
  blocks: number;
  /** Shed spans whose `.json` was checked. */
  spans: number;
}

/**
 * Adds a warning note when `stat`'s mode grants more than 0700 (folders) or 0600 (files).
 * A note, not a problem: verify judges integrity (invariants 5 and 8), and a copy of a state
 * directory (a git checkout of state.example, an archive) loses its modes without losing any
 * byte. ctxshed itself always creates 0700/0600, whatever the umask.
 */
export function checkPrivate(stat: Stats, where: string, findings: Findings): void {
  const allowed = stat.isDirectory() ? DIR_MODE : FILE_MODE;
  const mode = stat.mode & 0o777;
  if ((mode & ~allowed) !== 0) {
    findings.notes.push(`warning: ${where}: mode 0${mode.toString(8)} is wider than 0${allowed.toString(8)} (chmod ${allowed.toString(8)} it)`);
  }
}

/**
 * Adds a problem unless `stat` (from lstat) is what the layout says it must be; returns whether it
 * is. The problem names what the entry is instead: a symbolic link (a folder of the state
 * directory that is one would lead restore outside it), a FIFO, a socket or a device (a FIFO under
 * an elided name would make a reader wait forever). ctxshed makes none of these; restore and show
 * refuse to read them (state/read-contained.ts).
 */
export function checkKind(stat: Stats, kind: 'file' | 'dir', where: string, findings: Findings): boolean {
  const wanted = kind === 'dir' ? 'directory' : 'regular file';
  const found = fileKindOf(stat);
  if (found === wanted) return true;
  const why =
    found === 'symbolic link'
      ? 'ctxshed never makes one, and never follows one'
      : found === 'regular file' || found === 'directory'
        ? undefined
        : 'ctxshed never makes one, and never reads one';
  findings.problems.push(`${where}: is a ${found}, not a ${wanted}${why === undefined ? '' : ` (${why})`}`);
  return false;
}
