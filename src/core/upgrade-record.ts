/**
 * A record written as `ctxshed.conversation/1` upgraded to the one epoch shape (core/epoch-types.ts
 * `Epoch`), once, as it is read: the only place that knows the old shape. Pure, and total on any
 * JSON value: what it does not recognise it leaves as it is, for the record check to name.
 *
 * The old shape had a field per built-in kind and guessed the kind from which were present:
 * `blocks` (tool results, and the deeper cut's parts), `span` with `mode: "shed"` (a span epoch),
 * `thinking` (the thinking blocks any epoch removed), a correction told by its trigger
 * `prefix_check` and carrying its conversation's `mode`, and a registered kind's `items`, one key.
 * Each becomes the epoch's `kind` and its items under their kind's tag; nothing else changes, so
 * every stub the old record stood for is rendered from the same values, byte for byte.
 */
import { CONVERSATION_FORMAT, CONVERSATION_FORMAT_V1 } from './epoch-types.js';

type Fields = Record<string, unknown>;

/** The record `value` as the current format has it: a version 1 record upgraded, anything else as it is. */
export function upgradeRecord(value: unknown): unknown {
  if (!isObject(value) || value['format'] !== CONVERSATION_FORMAT_V1) return value;
  const epochs = value['epochs'];
  return { ...value, format: CONVERSATION_FORMAT, epochs: Array.isArray(epochs) ? epochs.map(upgradeEpoch) : epochs };
}

/** One version 1 epoch in the one shape: its kind and its items by kind, the other fields as they were. */
export function upgradeEpoch(epoch: unknown): unknown {
  if (!isObject(epoch)) return epoch;
  const { mode, blocks, span, thinking, items: registered, ...rest } = epoch;
  const tag = isObject(registered) ? Object.keys(registered)[0] : undefined;
  const kind = rest['trigger'] === 'prefix_check' ? 'thinking_only' : tag !== undefined ? tag : span !== undefined || mode === 'shed' ? 'span' : 'tool_results';
  const items: Fields = {};
  // The epoch's own kind's list is always there; `blocks` was on every old epoch, empty but for tool results.
  if (kind === 'tool_results' || (Array.isArray(blocks) ? blocks.length > 0 : blocks !== undefined)) items['tool_results'] = blocks;
  if (span !== undefined || kind === 'span') items['span'] = span === undefined ? [] : [span];
  if (isObject(registered)) Object.assign(items, registered);
  else if (registered !== undefined) items['items'] = registered;
  if (thinking !== undefined || kind === 'thinking_only') items['thinking_only'] = thinking ?? [];
  // The key order planRecord writes (core/plan-record.ts): the head, the kind, its items, then the rest.
  const { n, latchedAt, trigger, reason, policy, ...after } = rest;
  const head = { n, latchedAt, kind, ...(trigger === undefined ? {} : { trigger }), reason, policy };
  return { ...head, items: ordered(items, kind), ...after };
}

/** The epoch's own kind first, then the rest in the order they were added. */
function ordered(items: Fields, kind: string): Fields {
  const { [kind]: own, ...others } = items;
  return own === undefined ? others : { [kind]: own, ...others };
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
