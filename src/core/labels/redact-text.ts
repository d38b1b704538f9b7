/**
 * Redaction: every secret in a text replaced by a placeholder, before anything of it may leave
 * the machine (the classifier) or be quoted (a stub's main input).
 */
import { findSecrets, type SecretFinding } from './find-secrets.js';

/** What stands in for each hidden value. */
export const REDACTION_PLACEHOLDER = '[redacted]';

/** A text with more placeholders than this is treated as holding a secret (the seed's rule). */
export const MAX_PLACEHOLDERS = 2;

/** A redacted text, and what was hidden in it. */
export interface Redaction {
  readonly text: string;
  /** How many placeholders went in (overlapping findings share one). */
  readonly placeholders: number;
  /** A certain secret was found, or more than MAX_PLACEHOLDERS placeholders went in. */
  readonly holdsSecret: boolean;
}

/** The text with each secret (merged where findings overlap) replaced by REDACTION_PLACEHOLDER. */
export function redactText(text: string): Redaction {
  const spans = mergeFindings(findSecrets(text));
  let out = '';
  let from = 0;
  for (const span of spans) {
    out += text.slice(from, span.start) + REDACTION_PLACEHOLDER;
    from = span.end;
  }
  out += text.slice(from);
  return { text: out, placeholders: spans.length, holdsSecret: judgeSecret(spans) };
}

/** Whether the text holds a secret by the local rule: a certain one, or more than two findings. */
export function holdsSecret(text: string): boolean {
  return judgeSecret(mergeFindings(findSecrets(text)));
}

function judgeSecret(spans: readonly MergedSpan[]): boolean {
  return spans.some((s) => s.certain) || spans.length > MAX_PLACEHOLDERS;
}

interface MergedSpan {
  start: number;
  end: number;
  certain: boolean;
}

/** Findings (sorted by start) merged where they overlap or touch. */
function mergeFindings(found: readonly SecretFinding[]): MergedSpan[] {
  const merged: MergedSpan[] = [];
  for (const f of found) {
    const last = merged[merged.length - 1];
    if (last !== undefined && f.start <= last.end) {
      last.end = Math.max(last.end, f.end);
      last.certain ||= f.certain;
    } else {
      merged.push({ start: f.start, end: f.end, certain: f.certain });
    }
  }
  return merged;
}
