/**
 * The stub that stands in for a shed span: one user message. It is a pure function of the frozen
 * span and the state directory's spans path, so every request of every run carries the same bytes.
 */
import { encodeJsonString } from '../json-string.js';
import { isGatewayDir } from '../stub-paths.js';
import type { FrozenSpan } from './shed-types.js';

/** How every span stub's text begins. */
export const SPAN_STUB_PREFIX = '[ctxshed: shed ';
/** Tokens per byte the stub's estimate uses: fixed, so the stub never depends on a reading. */
export const SPAN_STUB_TOKENS_PER_BYTE = 0.25;

/** Absolute path of a span's file: `.json` holds its exact bytes, `.md` a readable rendering. */
export function spanFilePath(spansDir: string, sha256: string, ext: 'json' | 'md'): string {
  return `${spansDir}/${sha256}.${ext}`;
}

/** The stub's estimate of a span's tokens. */
export function estimateSpanTokens(bytes: number): number {
  return Math.round(bytes * SPAN_STUB_TOKENS_PER_BYTE);
}

/** The stub text for a frozen span (the text, not yet JSON-encoded). */
export function renderSpanStub(span: FrozenSpan, spansDir: string): string {
  const count = span.last - span.first + 1;
  const messages = count === 1 ? 'message' : 'messages';
  const md = spanFilePath(spansDir, span.sha256, 'md');
  const json = spanFilePath(spansDir, span.sha256, 'json');
  // A gateway's span stub names the restore tool alone: its files are on the gateway's disk (docs/team.md).
  const orRead = isGatewayDir(spansDir) ? GATEWAY_SPAN_KEPT : `, or read ${md}${pagesOf(span)} (the exact JSON is in ${json})`;
  let text =
    `${SPAN_STUB_PREFIX}${count} earlier ${messages} of this conversation to save context: ${span.bytes} bytes, ` +
    `about ${estimateSpanTokens(span.bytes)} tokens. Handle: ${span.sha256}. To see them again, call the ctxshed ` +
    `restore tool with this handle${orRead}.]`;
  if (span.pins.length > 0) text += `\n\nGoals pinned in the shed messages, verbatim:\n\n${span.pins.join('\n\n')}`;
  if (span.notices !== undefined && span.notices.length > 0)
    text += `\n\nNotices from the shed messages, still in force, verbatim:\n\n${span.notices.join('\n\n')}`;
  if (span.prompt !== undefined) text += `\n\nThe person's latest prompt (shed with them), verbatim:\n\n${span.prompt}`;
  if (span.tombstone !== undefined) text += `\n\nOriginating task (shed with them): "${span.tombstone}" (handle ${span.sha256})`;
  return text;
}

const GATEWAY_SPAN_KEPT = ' (the ctxshed gateway keeps them)';

/** The pages a `.md` longer than one Read names (read-pages.ts): `offset` and `limit` of each. */
function pagesOf(span: FrozenSpan): string {
  const pages = span.readPages ?? [];
  if (pages.length === 0) return '';
  const [lastOffset, lastLimit] = pages[pages.length - 1]!;
  const list = pages.map(([offset, limit]) => `offset ${offset} limit ${limit}`).join(', ');
  return ` (${lastOffset + lastLimit - 1} lines) in ${pages.length} Reads, since one Read stops at the client's cap: ${list}`;
}

const ENCODER = new TextEncoder();
const MESSAGE_HEAD = ENCODER.encode('{"role":"user","content":');

/** The stub message's JSON bytes: `{"role":"user","content":"<stub text>"}`. */
export function spanStubMessage(span: FrozenSpan, spansDir: string): Uint8Array {
  const content = encodeJsonString(ENCODER.encode(renderSpanStub(span, spansDir)));
  const out = new Uint8Array(MESSAGE_HEAD.length + content.length + 1);
  out.set(MESSAGE_HEAD, 0);
  out.set(content, MESSAGE_HEAD.length);
  out[out.length - 1] = 0x7d;
  return out;
}

/** What a span stub says about the span it stands for. */
export interface ParsedSpanStub {
  readonly messages: number;
  readonly bytes: number;
  readonly sha256: string;
}

const STUB_PATTERN = new RegExp(
  `^${escapeRegExp(SPAN_STUB_PREFIX)}(\\d+) earlier messages? of this conversation to save context: (\\d+) bytes, ` +
    'about \\d+ tokens\\. Handle: ([0-9a-f]{64})\\. To see them again, call the ctxshed restore tool with this handle' +
    `(?:, or read .*/\\3\\.md(?: \\(\\d+ lines\\) in \\d+ Reads, since one Read stops at the client's cap: (?:offset \\d+ limit \\d+(?:, )?)+)? \\(the exact JSON is in .*/\\3\\.json\\)|${escapeRegExp(GATEWAY_SPAN_KEPT)})\\.\\]`,
  's',
);

/** Reads a span stub's text back; `undefined` when the text is not one. */
export function parseSpanStub(text: string): ParsedSpanStub | undefined {
  if (!text.startsWith(SPAN_STUB_PREFIX)) return undefined;
  const m = STUB_PATTERN.exec(text);
  if (m === null) return undefined;
  const [, messages, bytes, sha256] = m;
  if (messages === undefined || bytes === undefined || sha256 === undefined) return undefined;
  return { messages: Number(messages), bytes: Number(bytes), sha256 };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
