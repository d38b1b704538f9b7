/**
 * The prefix of a thinking block (top-level `system`, `tools`, every earlier message and the
 * earlier blocks of its own message) as one canonical value, and its digest. The docs ("Preserved
 * thinking", "What counts as an edit") say what must not count as a change, and this form
 * neutralises exactly that:
 * - JSON formatting and key order ("the values do [matter]"): keys are sorted, the value is re-written;
 * - `cache_control` markers added, moved or removed: the member is left out wherever a block,
 *   a system block or a tool may carry one;
 * - a content given as a string `P` or as `[{"type":"text","text":P}]` (Claude Code turns the
 *   one into the other when its breakpoint moves on, and the docs say Claude Code has nothing to
 *   change): both become the block list;
 * - earlier thinking blocks ("earlier thinking blocks aren't in the prefix"; their order is
 *   checked by the chain instead, check-thinking.ts);
 * - a tool with `defer_loading: true` that no `tool_addition` block in the prefix names yet.
 * Everything else counts: an edited tool_result or tool_use input, an added text block, a changed
 * `system` or tool, a reordered message.
 */
import { createHash } from 'node:crypto';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where a block sits: `messages[message].content[block]`. */
export interface BlockPosition {
  readonly message: number;
  readonly block: number;
}

/** The parts of a request body the prefix is made of, as parsed. */
export interface PrefixSource {
  readonly system?: unknown;
  readonly tools?: unknown;
  readonly messages: readonly unknown[];
}

/** True for the two block types the prefix check binds. */
export function isThinkingBlock(block: unknown): block is Record<string, unknown> {
  return isObject(block) && (block['type'] === 'thinking' || block['type'] === 'redacted_thinking');
}

/** The hex sha256 of the canonical prefix of the block at `at` (which may be one past the end). */
export function prefixDigest(source: PrefixSource, at: BlockPosition): string {
  return createPrefixDigester(source)(at);
}

/**
 * A digester of the prefixes of one request's blocks. Each message's canonical text is hashed
 * once, so checking every block of a long conversation costs about one pass over it, not one per
 * block: the digest is the sha256 of `system`, the tools the prefix counts, the digest of each
 * earlier message and the partial message, each canonical.
 */
export function createPrefixDigester(source: PrefixSource): (at: BlockPosition) => string {
  const systemText = canonicalText(canonicalContent(source.system ?? null));
  const messageDigests: string[] = [];
  const toolsTexts = new Map<string, string>();
  const digestOfMessage = (i: number): string => (messageDigests[i] ??= sha256Hex(canonicalText(canonicalMessage(source.messages[i]))));
  return (at) => {
    const referenced = toolAdditionsIn(source.messages.slice(0, at.message + 1));
    const key = [...referenced].sort().join('\n');
    let toolsText = toolsTexts.get(key);
    if (toolsText === undefined) toolsTexts.set(key, (toolsText = canonicalText(canonicalTools(source.tools, referenced))));
    const hash = createHash('sha256').update(`system:${systemText}\ntools:${toolsText}\nmessages:`);
    for (let i = 0; i < at.message; i++) hash.update(`${digestOfMessage(i)},`);
    return hash.update(`\npartial:${canonicalText(partialMessage(source, at))}`).digest('hex');
  };
}

/** The canonical prefix value of the block at `at`. */
export function canonicalPrefix(source: PrefixSource, at: BlockPosition): Json {
  const earlier = source.messages.slice(0, at.message).map(canonicalMessage);
  const referenced = toolAdditionsIn(source.messages.slice(0, at.message + 1));
  return {
    system: canonicalContent(source.system ?? null),
    tools: canonicalTools(source.tools, referenced),
    messages: [...earlier, partialMessage(source, at)],
  };
}

/** The block's own message as far as the block: its role and the earlier non-thinking blocks. */
function partialMessage(source: PrefixSource, at: BlockPosition): Json {
  const own = source.messages[at.message];
  const ownBlocks = isObject(own) ? contentBlocks(own['content']).slice(0, at.block) : [];
  return { role: isObject(own) ? toJson(own['role']) : 'assistant', content: ownBlocks.filter((b) => !isThinkingBlock(b)).map(canonicalBlock) };
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** One JSON text per value: keys sorted at every depth. */
export function canonicalText(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function canonicalMessage(message: unknown): Json {
  if (!isObject(message)) return toJson(message);
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(message)) out[k] = k === 'content' ? canonicalContent(v) : toJson(v);
  return out;
}

/** A string content becomes its one text block; thinking blocks leave; every block is canonical. */
function canonicalContent(content: unknown): Json {
  if (typeof content === 'string') return [{ text: content, type: 'text' }];
  if (!Array.isArray(content)) return toJson(content);
  return content.filter((b) => !isThinkingBlock(b)).map(canonicalBlock);
}

function canonicalBlock(block: unknown): Json {
  if (!isObject(block)) return toJson(block);
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(block)) {
    if (k === 'cache_control') continue;
    // A tool_result's content may be a string or blocks too, each with its own cache_control.
    out[k] = k === 'content' && block['type'] === 'tool_result' ? canonicalContent(v) : toJson(v);
  }
  return out;
}

function canonicalTools(tools: unknown, referenced: ReadonlySet<string>): Json {
  if (!Array.isArray(tools)) return toJson(tools ?? null);
  const kept = tools.filter((t) => !(isObject(t) && t['defer_loading'] === true && !referenced.has(String(t['name']))));
  return kept.map(canonicalBlock);
}

/** The tool names a `tool_addition` block names in these messages. */
function toolAdditionsIn(messages: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const m of messages) {
    for (const b of isObject(m) ? contentBlocks(m['content']) : []) {
      if (!isObject(b) || b['type'] !== 'tool_addition' || !isObject(b['tool'])) continue;
      const tool = b['tool'];
      const name = tool['type'] === 'tool_reference' ? tool['name'] : isObject(tool['definition']) ? tool['definition']['name'] : undefined;
      if (typeof name === 'string') names.add(name);
    }
  }
  return names;
}

/** The blocks of a message's content (a string content has none that can be thinking). */
export function contentBlocks(content: unknown): readonly unknown[] {
  return Array.isArray(content) ? content : [];
}

function toJson(value: unknown): Json {
  return value === undefined ? null : (value as Json);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
