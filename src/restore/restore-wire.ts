/**
 * A restore's outcome and a spans listing as JSON, between the proxy's restore routes and
 * `ctxshed mcp --gateway` (docs/team.md): the gateway reads its state, the agent's machine
 * renders the same tool answers it would from a local directory.
 */
import type { RestorableConversation, RestorableList } from './list-restorable.js';
import type { RestoreOutcome } from './restore-text.js';

/** An outcome as JSON: a restored text's bytes in base64. */
export function encodeOutcome(outcome: RestoreOutcome): string {
  if (outcome.kind !== 'restored') return JSON.stringify(outcome);
  const { bytes, ...rest } = outcome;
  return JSON.stringify({ ...rest, bytes: Buffer.from(bytes).toString('base64') });
}

const KINDS = new Set(['restored', 'invalid', 'unknown', 'ambiguous', 'sealed', 'corrupt', 'missing', 'refused']);

/** An outcome read back; throws on anything that is not one. */
export function decodeOutcome(text: string): RestoreOutcome {
  const value = JSON.parse(text) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || !KINDS.has(String(value['kind'])))
    throw new Error('the gateway answered something that is not a restore outcome');
  if (value['kind'] !== 'restored') return value as unknown as RestoreOutcome;
  if (typeof value['bytes'] !== 'string' || typeof value['handle'] !== 'string') throw new Error('the gateway answered a restored text without its bytes');
  return { ...(value as unknown as RestoreOutcome), bytes: new Uint8Array(Buffer.from(value['bytes'], 'base64')) } as RestoreOutcome;
}

/**
 * A listing read back; throws on anything that is not one. A conversation without `originals` (a
 * gateway from before registered kinds were listed) reads as having none.
 */
export function decodeList(text: string): RestorableList {
  const value = JSON.parse(text) as Partial<RestorableList>;
  if (!Array.isArray(value.conversations) || !Array.isArray(value.unreadable)) throw new Error('the gateway answered something that is not a spans listing');
  const conversations = value.conversations.map((c: Partial<RestorableConversation>) => ({ ...c, originals: c.originals ?? [] }) as RestorableConversation);
  return { ...value, conversations } as RestorableList;
}
