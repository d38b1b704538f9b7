/**
 * One line of the wire log, classified. Pure: a line of text in, plain data out. The reports
 * (report/read-wire-log.ts) stream the lines; everything here works on one line at a time.
 */
import { isRecord } from '../errors.js';
import type { WireNote, WireRecord } from './wire-record.js';

/** What a line of `wire.jsonl` is. */
export type WireEntry =
  | { readonly kind: 'record'; readonly record: WireRecord }
  | { readonly kind: 'note'; readonly note: WireNote }
  /** `{"ctxshed":"torn-line"}`: the line above it was cut short by a crash (WIRE_TORN_MARKER). */
  | { readonly kind: 'torn-marker' }
  /** Not JSON (a torn line), or JSON that is none of the above (a newer or foreign line). */
  | { readonly kind: 'unreadable' };

const NUMBER_FIELDS = ['status', 'bytesIn', 'bytesOut', 'rescued', 'bytesElided', 'epochs'] as const;

/**
 * Classifies one line. Checks only the fields the reports read, so a record from a newer ctxshed
 * with extra fields still counts; anything the reports could misread is `unreadable`.
 */
export function classifyWireLine(line: string): WireEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'unreadable' };
  }
  // `value` stays unknown; `fields` is the same object, narrowed for reading its members.
  const fields = isRecord(value) ? value : undefined;
  if (fields === undefined) return { kind: 'unreadable' };
  if (fields['ctxshed'] === 'torn-line') return { kind: 'torn-marker' };
  if (typeof fields['t'] !== 'string') return { kind: 'unreadable' };
  if (typeof fields['note'] === 'string') return { kind: 'note', note: value as WireNote };
  return hasRecordFields(fields) ? { kind: 'record', record: value as WireRecord } : { kind: 'unreadable' };
}

function hasRecordFields(fields: Record<string, unknown>): boolean {
  if (!NUMBER_FIELDS.every((name) => typeof fields[name] === 'number')) return false;
  const key = fields['key'];
  if (key !== null && typeof key !== 'string') return false;
  const optional = (name: string, type: 'number' | 'string' | 'object'): boolean =>
    fields[name] === undefined || (typeof fields[name] === type && fields[name] !== null);
  if (!optional('fullness', 'number') || !optional('window', 'number') || !optional('latched', 'number')) return false;
  if (
    !optional('reason', 'string') ||
    !optional('hold', 'string') ||
    !optional('agentId', 'string') ||
    !optional('requestClass', 'string') ||
    !optional('model', 'string')
  )
    return false;
  if (!optional('usage', 'object') || !optional('skipped', 'object')) return false;
  if (!optional('refaults', 'number') || !optional('refaulted', 'object') || !optional('retry', 'object')) return false;
  if (!optional('thinkingRemoved', 'number') || !optional('thinkingSkipped', 'object') || !optional('repeats', 'number')) return false;
  if (!optional('thinkingDropped', 'number') || !optional('thinkingDroppedBy', 'object')) return false;
  // A Responses WebSocket's records (docs/openai.md "WebSockets").
  if (!optional('transport', 'string') || !optional('closeCode', 'number') || (fields['warmup'] !== undefined && fields['warmup'] !== true)) return false;
  const usage = fields['usage'] as Record<string, unknown> | undefined;
  return usage === undefined || ['input', 'cacheCreation', 'cacheRead'].every((name) => typeof usage[name] === 'number');
}
