/**
 * The client's moving cache breakpoint, the one edit Claude Code makes to bytes it sent before
 * (test/fixtures/real/README.md, "What the client sends"). The client keeps each message in one form and
 * marks only the last one when it sends: its last block gets `"cache_control":{"type":"ephemeral"}`,
 * and a prompt kept as a plain string goes out as a lone text block carrying it. On the next
 * request that message is no longer last and goes out in its kept form again, so on the wire
 * the old breakpoint's `,"cache_control":{"type":"ephemeral"}` disappears and a lone text block
 * with cache_control becomes `"content":P`. Every other earlier byte stays the same.
 *
 * The scripted client and the property tests' transcript generator both call this; it is the
 * only place the edit is written. Pure.
 */

/** What the next request does to the message `markLastMessage` marked. */
export type BreakpointEdit = 'lone-text-to-string' | 'drop-cache-control' | 'none';

/** A message as the client sends it while it is the last one, and how the next request undoes that. */
export interface MarkedMessage<M> {
  readonly last: M;
  readonly edit: BreakpointEdit;
}

/**
 * `message` (as the client keeps it) with the breakpoint the client adds while it is the last
 * message. Only a user message is marked, and not when its last block already carries its own
 * `cache_control`.
 */
export function markLastMessage<M extends { readonly role?: unknown; readonly content?: unknown }>(message: M): MarkedMessage<M> {
  const { content } = message;
  if (message.role !== 'user') return { last: message, edit: 'none' };
  if (typeof content === 'string') {
    return { last: { ...message, content: [{ type: 'text', text: content, cache_control: { type: 'ephemeral' } }] }, edit: 'lone-text-to-string' };
  }
  if (!Array.isArray(content)) return { last: message, edit: 'none' };
  const lastBlock: unknown = content[content.length - 1];
  if (typeof lastBlock !== 'object' || lastBlock === null || (lastBlock as Record<string, unknown>)['cache_control'] !== undefined)
    return { last: message, edit: 'none' };
  const marked = { ...lastBlock, cache_control: { type: 'ephemeral' } };
  return { last: { ...message, content: [...(content as unknown[]).slice(0, -1), marked] }, edit: 'drop-cache-control' };
}
