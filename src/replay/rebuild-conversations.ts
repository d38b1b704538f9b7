/**
 * Rebuilds the requests a Claude Code session sent from its transcript (`<session>.jsonl`): the
 * messages in order, assistant records merged by `message.id` (the client writes one record per
 * content block), a compaction boundary starting a new conversation. Sidechain records written
 * into the same file (older clients wrote subagents there, interleaved with the main thread) are
 * their own conversations: by `agentId`, else by the `parentUuid` chain. Pure: lines in, data out.
 */

/** One message as the API receives it. */
export interface ApiMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly unknown[];
}

/** What the provider reported for one request. */
export interface RecordedUsage {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** The part of `cacheWrite` written with the 1-hour TTL. */
  readonly cacheWrite1h: number;
  readonly output: number;
}

/** One model call, rebuilt. */
export interface RebuiltRequest {
  /** The provider's id of the response (`message.id`): unique, so a copy in another file is known. */
  readonly id: string;
  readonly messages: readonly ApiMessage[];
  readonly model: string;
  /** When its response started (ms since the epoch): the transcript's time for the request. */
  readonly timeMs: number;
  /**
   * When it was sent: the time of the last user record before it (the prompt or tool result the
   * client sends at once), else `timeMs`. Responses take seconds to start (up to half a minute
   * on the shared transcripts), so cache ages are measured on this clock.
   */
  readonly sentMs: number;
  readonly usage: RecordedUsage;
  /** Content blocks in `messages` (the prompt cache looks back over blocks). */
  readonly blocks: number;
  /**
   * Stitched past a compaction (stitch-transcript.ts): `usage` counted the compacted prompt, so its
   * prompt tokens are re-estimated from bytes (whole-session.ts) and it stays out of the calibration.
   */
  readonly estimated?: boolean;
}

/** A sequence of requests that resend one growing transcript. */
export interface RebuiltConversation {
  /** `<file>#<n>` for the n-th conversation of a file. */
  readonly id: string;
  readonly kind: 'main' | 'subagent';
  readonly agentId?: string;
  readonly requests: RebuiltRequest[];
  /** Whether the client compacted it (a compaction boundary followed it). */
  endedInCompaction: boolean;
  /** The boundary that ended it: the client's own count then, what triggered it, and when. */
  compaction?: CompactionFacts;
  /** Whether it began after a compaction boundary of its thread (the client's summary opens it). */
  afterCompaction?: boolean;
}

/** What a `compact_boundary` record says (`compactMetadata`). */
export interface CompactionFacts {
  /** The client's count of the conversation when it compacted; absent when the record has none. */
  readonly preTokens?: number;
  /** `auto` when the client's threshold fired, `manual` for `/compact`; anything else as written. */
  readonly trigger: string;
  readonly timeMs: number;
}

interface Draft {
  conversation: RebuiltConversation;
  messages: ApiMessage[];
  /** message.id -> index in `messages`, for merging an assistant message's records. */
  assistantAt: Map<string, number>;
  /** message.id -> index in `requests`, so the last record's usage wins. */
  requestAt: Map<string, number>;
  /** The time of the latest user record since the last request: when the next one left. */
  lastUserMs: number;
}

/** Rebuilds every conversation of one transcript file (`name` labels them). */
export function rebuildConversations(lines: readonly string[], name: string): RebuiltConversation[] {
  const done: RebuiltConversation[] = [];
  const drafts = new Map<string, Draft>();
  const threadOf = threadKeys();
  const compacted = new Set<string>();
  const start = (record: TranscriptRecord, thread: string): Draft => {
    const sidechain = record['isSidechain'] === true;
    const agentId = typeof record['agentId'] === 'string' ? record['agentId'] : undefined;
    const conversation: RebuiltConversation = {
      id: `${name}#${done.length + 1}`,
      kind: sidechain ? 'subagent' : 'main',
      ...(agentId === undefined ? {} : { agentId }),
      requests: [],
      endedInCompaction: false,
      ...(compacted.has(thread) ? { afterCompaction: true } : {}),
    };
    done.push(conversation);
    return { conversation, messages: [], assistantAt: new Map(), requestAt: new Map(), lastUserMs: Number.NaN };
  };
  for (const line of lines) {
    const record = parseRecord(line);
    if (record === undefined) continue;
    const thread = threadOf(record);
    if (record['type'] === 'system' && record['subtype'] === 'compact_boundary') {
      const ended = drafts.get(thread);
      if (ended !== undefined) {
        ended.conversation.endedInCompaction = true;
        ended.conversation.compaction = compactionFacts(record);
      }
      compacted.add(thread);
      drafts.delete(thread);
      continue;
    }
    const message = record['message'];
    if ((record['type'] !== 'user' && record['type'] !== 'assistant') || !isObject(message)) continue;
    let draft = drafts.get(thread);
    if (draft === undefined) {
      draft = start(record, thread);
      drafts.set(thread, draft);
    }
    if (record['type'] === 'user') addUser(draft, message, record);
    else addAssistant(draft, message, record);
  }
  return done.filter((c) => c.requests.length > 0);
}

type TranscriptRecord = Record<string, unknown>;

/**
 * Which thread a record belongs to: `main`, or one per sidechain. A sidechain record joins its
 * parent's thread (progress and system records included, so the chain is not lost through them);
 * a sidechain without a known sidechain parent starts a thread of its own.
 */
function threadKeys(): (record: TranscriptRecord) => string {
  const threadOfUuid = new Map<string, string>();
  return (record) => {
    let thread = 'main';
    if (record['isSidechain'] === true) {
      const parent = typeof record['parentUuid'] === 'string' ? threadOfUuid.get(record['parentUuid']) : undefined;
      if (typeof record['agentId'] === 'string') thread = `agent:${record['agentId']}`;
      else if (parent !== undefined && parent !== 'main') thread = parent;
      else thread = `side:${String(record['uuid'])}`;
    }
    if (typeof record['uuid'] === 'string') threadOfUuid.set(record['uuid'], thread);
    return thread;
  };
}

function parseRecord(line: string): TranscriptRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined; // a torn last line of a live session
  }
}

function addUser(draft: Draft, message: Record<string, unknown>, record: TranscriptRecord): void {
  const timeMs = timeOf(record);
  if (!Number.isNaN(timeMs)) draft.lastUserMs = timeMs;
  const blocks = contentBlocks(message['content']);
  if (blocks.length === 0) return;
  const last = draft.messages.at(-1);
  // Consecutive user records (parallel tool results, reminders) reach the API as one message.
  if (last?.role === 'user') draft.messages[draft.messages.length - 1] = { role: 'user', content: [...last.content, ...blocks] };
  else draft.messages.push({ role: 'user', content: blocks });
}

function addAssistant(draft: Draft, message: Record<string, unknown>, record: TranscriptRecord): void {
  const model = typeof message['model'] === 'string' ? message['model'] : '';
  // The client writes API errors as "<synthetic>" assistant records; they were never sent back.
  if (model === '<synthetic>' || model === '') return;
  const id = typeof message['id'] === 'string' ? message['id'] : `record-${String(record['uuid'])}`;
  const blocks = contentBlocks(message['content']);
  const at = draft.assistantAt.get(id);
  if (at !== undefined) {
    const prior = draft.messages[at];
    if (prior !== undefined) draft.messages[at] = { role: 'assistant', content: [...prior.content, ...blocks] };
    const r = draft.requestAt.get(id);
    const request = r === undefined ? undefined : draft.conversation.requests[r];
    const usage = readUsage(message['usage']);
    if (request !== undefined && r !== undefined && usage !== undefined) draft.conversation.requests[r] = { ...request, usage };
    return;
  }
  // A new message id is a new request: everything before it is what the client sent.
  const messages = draft.messages.slice();
  const usage = readUsage(message['usage']) ?? { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 };
  const timeMs = timeOf(record);
  // A user record stamped after the response started was not what this request sent.
  const sentMs = Number.isNaN(draft.lastUserMs) || draft.lastUserMs > timeMs ? timeMs : draft.lastUserMs;
  if (messages.length > 0) {
    draft.requestAt.set(id, draft.conversation.requests.length);
    draft.conversation.requests.push({ id, messages, model, timeMs, sentMs, usage, blocks: messages.reduce((n, m) => n + m.content.length, 0) });
  }
  // A request with no user record of its own after this one left when its response began.
  draft.lastUserMs = Number.NaN;
  draft.assistantAt.set(id, draft.messages.length);
  draft.messages.push({ role: 'assistant', content: blocks });
}

function compactionFacts(record: TranscriptRecord): CompactionFacts {
  const meta = isObject(record['compactMetadata']) ? record['compactMetadata'] : {};
  const pre = meta['preTokens'];
  return {
    ...(typeof pre === 'number' && Number.isFinite(pre) && pre > 0 ? { preTokens: pre } : {}),
    trigger: typeof meta['trigger'] === 'string' ? meta['trigger'] : 'unknown',
    timeMs: timeOf(record),
  };
}

function timeOf(record: TranscriptRecord): number {
  return typeof record['timestamp'] === 'string' ? Date.parse(record['timestamp']) : Number.NaN;
}

/** A string content is sent as one text block: the API reads both alike, and so does the cache. */
function contentBlocks(content: unknown): unknown[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.slice() : [];
}

function readUsage(value: unknown): RecordedUsage | undefined {
  if (!isObject(value)) return undefined;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const creation = isObject(value['cache_creation']) ? value['cache_creation'] : {};
  return {
    input: n(value['input_tokens']),
    cacheRead: n(value['cache_read_input_tokens']),
    cacheWrite: n(value['cache_creation_input_tokens']),
    cacheWrite1h: n(creation['ephemeral_1h_input_tokens']),
    output: n(value['output_tokens']),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
