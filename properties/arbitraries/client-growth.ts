/**
 * How the real client grows a transcript between requests (test/fixtures/real/README.md): every request
 * resends the whole history; new messages are appended, the last one carrying the moving
 * `cache_control` breakpoint; on the next request the old last message loses it (the member and
 * its separator disappear) and a prompt sent as `[{"type":"text","text":P,"cache_control":...}]`
 * becomes `"content":P`. Every other earlier byte is identical: each message is styled once and
 * its bytes reused; only the edited old last message is re-written, from the same styled tree.
 */
import fc from 'fast-check';
import {
  styledMember,
  Styler,
  withMemberNode,
  withoutMember,
  writeStyled,
  type JsonObject,
  type JsonValue,
  type StyledItem,
  type StyledNode,
} from './styled-json.js';
import { buildMessages, type ConversationSpec, type MessageEntry } from './transcript.js';

/** One request body the client sends, with its structured meaning. */
export interface ClientRequest {
  readonly bytes: Uint8Array;
  /** What `JSON.parse` must return for `bytes`. */
  readonly value: JsonObject;
  readonly messageCount: number;
  readonly [fc.toStringMethod]: () => string;
}

const ENCODER = new TextEncoder();
const MESSAGES_SLOT: StyledNode = { kind: 'atom', text: 'null' };

/** Every request of the conversation, in order (the first carries the first prompt alone). */
export function growConversation(spec: ConversationSpec): ClientRequest[] {
  return grow(spec, false);
}

/** The conversation's last (largest) request. */
export function lastRequest(spec: ConversationSpec): ClientRequest {
  const all = grow(spec, true);
  return all[all.length - 1]!;
}

function grow(spec: ConversationSpec, lastOnly: boolean): ClientRequest[] {
  const styler = new Styler(spec.format);
  const { entries, requestEnds } = buildMessages(spec);
  const top = topEntries(spec);
  const lead = styler.ws();
  const root = styler.object(top.map(([k, v]) => [k, v === undefined ? MESSAGES_SLOT : styler.value(v)] as const));
  const trail = styler.ws();
  const emptyMessages = styler.ws();
  const items: StyledItem[] = [];
  let lastEdit: MessageEntry['edit'] = 'none';
  const requests: ClientRequest[] = [];
  for (const [r, end] of requestEnds.entries()) {
    const previousLast = items[items.length - 1];
    if (previousLast !== undefined) items[items.length - 1] = { ...previousLast, node: restForm(previousLast.node, lastEdit) };
    for (let m = items.length; m < end; m++) {
      const entry = entries[m]!;
      items.push(styler.item(styler.value(m === end - 1 ? entry.last : entry.rest)));
      lastEdit = m === end - 1 ? entry.edit : 'none';
    }
    if (lastOnly && r < requestEnds.length - 1) continue;
    const messages = entries.slice(0, end).map((e, i) => (i === end - 1 ? e.last : e.rest));
    const body = withMemberNode(root, 'messages', { kind: 'array', items: [...items], empty: emptyMessages });
    const value: Record<string, JsonValue> = {};
    for (const [k, v] of top) value[k] = v === undefined ? messages : v;
    const text = lead + writeStyled(body) + trail;
    // fast-check prints a counterexample with this: the body as JSON text, not a byte dump.
    requests.push({ bytes: ENCODER.encode(text), value, messageCount: end, [fc.toStringMethod]: () => `body(${JSON.stringify(text)})` });
  }
  return requests;
}

/** The top-level members in the client's order; `undefined` marks where `messages` goes. */
function topEntries(spec: ConversationSpec): Array<readonly [string, JsonValue | undefined]> {
  const t = spec.top;
  const out: Array<readonly [string, JsonValue | undefined]> = [
    ['model', t.model],
    ['messages', undefined],
  ];
  if (t.system !== undefined) {
    out.push([
      'system',
      typeof t.system === 'string'
        ? t.system
        : t.system.map((b) => (b.cacheControl ? { type: 'text', text: b.text, cache_control: { type: 'ephemeral' } } : { type: 'text', text: b.text })),
    ]);
  }
  if (t.tools !== undefined) out.push(['tools', t.tools]);
  if (t.userId !== undefined) out.push(['metadata', { user_id: t.userId }]);
  if (t.maxTokens !== undefined) out.push(['max_tokens', t.maxTokens]);
  if (t.thinking !== undefined) out.push(['thinking', t.thinking]);
  for (const extra of t.extras) out.push(extra);
  if (t.stream !== undefined) out.push(['stream', t.stream]);
  return out;
}

/**
 * The old last message as the next request carries it: the client's two edits, nothing else.
 * Which edit applies is the scripted client's own decision (src/scripted/breakpoint.ts, through
 * `buildMessages`); this only re-writes it on the styled tree, so the message keeps its spacing.
 */
function restForm(message: StyledNode, edit: MessageEntry['edit']): StyledNode {
  if (edit === 'none' || message.kind !== 'object') return message;
  const content = styledMember(message, 'content')?.node;
  if (content?.kind !== 'array') throw new Error('breakpoint message without array content');
  if (edit === 'lone-text-to-string') {
    const text = styledMember(content.items[0]!.node, 'text')?.node;
    if (text === undefined) throw new Error('lone text block without text');
    return withMemberNode(message, 'content', text);
  }
  const lastItem = content.items[content.items.length - 1]!;
  if (lastItem.node.kind !== 'object') throw new Error('last block is not an object');
  const items = [...content.items.slice(0, -1), { ...lastItem, node: withoutMember(lastItem.node, 'cache_control') }];
  return withMemberNode(message, 'content', { ...content, items });
}

/** A request from literal JSON text (regression examples). */
export function requestFromText(text: string): ClientRequest {
  const value = JSON.parse(text) as JsonObject;
  const messages = value['messages'];
  return {
    bytes: ENCODER.encode(text),
    value,
    messageCount: Array.isArray(messages) ? messages.length : 0,
    [fc.toStringMethod]: () => `body(${JSON.stringify(text)})`,
  };
}
