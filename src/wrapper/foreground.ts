import { readFileSync } from 'node:fs';

/** The signals a terminal sends to its whole foreground process group: ^C, ^\ and a resize. */
export const TERMINAL_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set<NodeJS.Signals>(['SIGINT', 'SIGQUIT', 'SIGWINCH']);

/** The two fields of a /proc/<pid>/stat line that say who owns the terminal. */
export type ProcessGroups = { pgrp: number; tpgid: number };

/** Reads `pgrp` and `tpgid` from a /proc/<pid>/stat line (proc(5)); undefined if malformed. */
export function parseProcStat(text: string): ProcessGroups | undefined {
  // Field 2 is the command name in parentheses and may itself hold spaces and ')', so fields
  // are counted from the last ')': state ppid pgrp session tty_nr tpgid ...
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(' ');
  const pgrp = parseInteger(fields[2]);
  const tpgid = parseInteger(fields[5]);
  if (pgrp === undefined || tpgid === undefined) return undefined;
  return { pgrp, tpgid };
}

/**
 * True when `pid` is in the foreground group of its controlling terminal, so what the terminal
 * sends (TERMINAL_SIGNALS) has reached it directly. False when there is no terminal, and when it
 * cannot tell (no /proc, as on macOS): callers then forward, as foreground-child always does.
 */
export function isTerminalForeground(pid: number, readStat: (pid: number) => string = (p) => readFileSync(`/proc/${p}/stat`, 'utf8')): boolean {
  let groups: ProcessGroups | undefined;
  try {
    groups = parseProcStat(readStat(pid));
  } catch {
    return false;
  }
  // tpgid is -1 for a process without a controlling terminal.
  return groups !== undefined && groups.tpgid > 0 && groups.pgrp === groups.tpgid;
}

function parseInteger(field: string | undefined): number | undefined {
  return field !== undefined && /^-?\d+$/.test(field) ? Number(field) : undefined;
}
