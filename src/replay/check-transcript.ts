/**
 * Whether a file's lines are a Claude Code transcript (issue 29, item 4): JSON records, one a line,
 * at least one a user or assistant message. What is not a transcript (not JSON, empty, `{"foo":1}`,
 * a README renamed `.jsonl`) is named with the line that shows it; lines that are not JSON inside
 * a real transcript (a torn last line of a live session) are counted, never skipped in silence. Pure.
 */

/** A transcript, with the lines skipped in it. */
export interface TranscriptCheck {
  readonly ok: true;
  /** Lines that are not JSON records, and the first of them (1-based). */
  readonly skipped: { readonly lines: number; readonly firstLine?: number };
}

/** Not a transcript, and why: the line (1-based; 0 for the whole file) and what is wrong with it. */
export interface NotTranscript {
  readonly ok: false;
  readonly line: number;
  readonly why: string;
}

/** Checks a file's lines. */
export function checkTranscript(lines: readonly string[]): TranscriptCheck | NotTranscript {
  let skipped = 0;
  let firstSkipped: number | undefined;
  let firstOdd: { line: number; why: string } | undefined;
  let messages = 0;
  let records = 0;
  for (const [i, text] of lines.entries()) {
    if (text.trim() === '') continue;
    const value = parse(text);
    if (value === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) {
      skipped++;
      firstSkipped ??= i + 1;
      firstOdd ??= { line: i + 1, why: value === undefined ? 'is not JSON' : 'is JSON but not a record (an object)' };
      continue;
    }
    const record = value as Record<string, unknown>;
    if (typeof record['type'] !== 'string') {
      firstOdd ??= { line: i + 1, why: 'is JSON but not a Claude Code record (it has no "type")' };
      continue;
    }
    records++;
    if ((record['type'] === 'user' || record['type'] === 'assistant') && typeof record['message'] === 'object' && record['message'] !== null) messages++;
  }
  if (records === 0 && firstOdd === undefined) return { ok: false, line: 0, why: 'is empty' };
  if (messages === 0) {
    return firstOdd !== undefined ? { ok: false, line: firstOdd.line, why: firstOdd.why } : { ok: false, line: 0, why: 'holds no user or assistant message' };
  }
  return { ok: true, skipped: { lines: skipped, ...(firstSkipped === undefined ? {} : { firstLine: firstSkipped }) } };
}

/** The reason as one sentence naming the file and the line. */
export function notTranscriptMessage(file: string, check: NotTranscript): string {
  return check.line === 0
    ? `${file} is not a Claude Code transcript: it ${check.why}`
    : `${file} is not a Claude Code transcript: line ${check.line} ${check.why}`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
