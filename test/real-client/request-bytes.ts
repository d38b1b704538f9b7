/** Byte-level views of real request bodies that the real-client suite asserts on. */
import { findStubs, type FoundStub } from '../../src/core/epochs/inflate.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';

const BREAKPOINT = Buffer.from(',"cache_control":{"type":"ephemeral"}');
/** A message of one text block, which the client collapses to a string once it is no longer last. */
const LONE_TEXT = ['user', 'system'].map((role) => ({ head: Buffer.from(`{"role":"${role}","content":[{"type":"text","text":`), role }));

export function indexOf(body: Buffer): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind === 'failed') throw new Error(`not a Messages API body: ${outcome.reason} ${outcome.detail}`);
  return outcome.index;
}

export function stubsOf(body: Buffer): FoundStub[] {
  return findStubs(body, indexOf(body));
}

/**
 * The bytes the next request of the conversation should start with, in the client's own
 * terms: `prev` up to the end of its messages, without the message-level breakpoint, and
 * the variant with a lone text message collapsed to a string (the two changes the client makes):
 * a user prompt, and (Claude Code 2.1.328) a `role: "system"` message.
 */
export function resentPrefixes(prev: Buffer): Buffer[] {
  const index = indexOf(prev);
  let prefix = prev.subarray(0, index.messagesSpan.end - 1);
  const at = prefix.lastIndexOf(BREAKPOINT);
  if (at !== -1) prefix = Buffer.concat([prefix.subarray(0, at), prefix.subarray(at + BREAKPOINT.length)]);
  const variants = [prefix];
  const last = index.messages.at(-1);
  const collapsed = last === undefined ? undefined : collapseLoneText(prefix.subarray(last.start));
  if (last !== undefined && collapsed !== undefined) variants.push(Buffer.concat([prefix.subarray(0, last.start), collapsed]));
  return variants;
}

/**
 * `{"role":R,"content":[{"type":"text","text":T}]...}` as `{"role":R,"content":T...}` (keys after
 * `content`, such as 2.1.328's message-level `output_config`, kept as they were), else undefined.
 */
function collapseLoneText(message: Buffer): Buffer | undefined {
  const lone = LONE_TEXT.find(({ head }) => message.subarray(0, head.length).equals(head));
  if (lone === undefined) return undefined;
  let parsed: { content?: Array<{ text?: unknown }> };
  try {
    parsed = JSON.parse(message.toString('utf8')) as typeof parsed;
  } catch {
    return undefined;
  }
  const text = parsed.content?.length === 1 ? parsed.content[0]?.text : undefined;
  if (typeof text !== 'string') return undefined;
  const block = Buffer.concat([lone.head, Buffer.from(`${JSON.stringify(text)}}]`)]);
  if (!message.subarray(0, block.length).equals(block)) return undefined;
  return Buffer.concat([Buffer.from(`{"role":"${lone.role}","content":${JSON.stringify(text)}`), message.subarray(block.length)]);
}

/** The longest length up to which `next` agrees with one of the prefixes `prev` should be resent with. */
export function sharedWithPrevious(prev: Buffer, next: Buffer): { full: boolean; bytes: number } {
  let best = 0;
  for (const prefix of resentPrefixes(prev)) {
    if (next.subarray(0, prefix.length).equals(prefix)) return { full: true, bytes: prefix.length };
    let n = 0;
    while (n < prefix.length && n < next.length && prefix[n] === next[n]) n += 1;
    best = Math.max(best, n);
  }
  return { full: false, bytes: best };
}

/** Read's output without its `N\t` line numbers (one layer of them). */
export function withoutLineNumbers(readOutput: string): string {
  return readOutput.replace(/^ *\d+[\t→]/gm, '');
}

/** The reminders Claude Code may append to a tool result (after trimming its trailing whitespace). */
export const CLIENT_REMINDER = /(?:\s*<system-reminder>\n(?:(?!<\/system-reminder>)[\s\S])*<\/system-reminder>)+$/;

/** Whether a tool result's text is `want`, or `want` trimmed with reminders the client appended. */
export function sameText(got: string, want: string): boolean {
  return got === want || (CLIENT_REMINDER.test(got) && got.replace(CLIENT_REMINDER, '').trimEnd() === want.trimEnd());
}

const SPAN_PAGE =
  /^\[ctxshed restore: shed span, (\d+) bytes, sha256 ([0-9a-f]{64}); verified: its exact bytes re-hashed just now and they match; their readable rendering, made from those bytes(?:, follows this line|: characters 0 to (\d+) of (\d+) follow this line; for the rest, call restore again with offset \3\. It stops there [^\]]*)\]$/;

/**
 * Why the first page of a span's restore is not that span's verified rendering, or `undefined`
 * when it is: its header names the span and the page (the whole rendering, or its first
 * characters when the rendering is over one page), and the text after it is exactly that page.
 */
export function whyNotFirstSpanPage(text: string, span: { readonly bytes: number; readonly sha256: string }, rendering: string): string | undefined {
  const [header = '', ...rest] = text.split('\n');
  const m = SPAN_PAGE.exec(header);
  if (m === null) return `not a span restore's header: ${header.slice(0, 200)}`;
  if (Number(m[1]) !== span.bytes || m[2] !== span.sha256) return `names another span: ${header}`;
  const page = m[3] === undefined ? rendering : rendering.slice(0, Number(m[3]));
  if (m[4] !== undefined && Number(m[4]) !== rendering.length) return `names ${m[4]} characters, the rendering has ${rendering.length}`;
  return sameText(rest.join('\n'), page) ? undefined : `the page differs from the rendering: ${rest.join('\n').slice(-300)}`;
}

const WHOLE_REMINDER = /^<system-reminder>\n(?:(?!<\/system-reminder>)[\s\S])*<\/system-reminder>$/;

/**
 * A tool result's text without what the client added to the tool's own: Claude Code 2.1.328
 * appends a `<system-reminder>` text block (the tokens left) to an MCP tool's answer, and a line
 * break to the text block before it (seen on every page of a restore).
 */
export function toolTextOf(result: SentToolResult): string {
  if (!Array.isArray(result.content)) return result.text;
  const blocks = result.content as Array<Record<string, unknown>>;
  let end = blocks.length;
  while (end > 1 && typeof blocks[end - 1]!['text'] === 'string' && WHOLE_REMINDER.test(blocks[end - 1]!['text'] as string)) end -= 1;
  const text = blocks
    .slice(0, end)
    .map((c) => (typeof c['text'] === 'string' ? c['text'] : ''))
    .join('');
  return end < blocks.length && text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** A tool_result block as the client sent it. */
export interface SentToolResult {
  readonly toolUseId: string;
  readonly isError: boolean;
  /** Its text: the string content, or its text blocks joined. */
  readonly text: string;
  readonly content: unknown;
}

/** Every tool_result of a request body, by tool_use_id. */
export function toolResultsOf(body: Buffer): Map<string, SentToolResult> {
  const parsed = JSON.parse(body.toString('utf8')) as { messages?: Array<{ content?: unknown }> };
  const results = new Map<string, SentToolResult>();
  for (const m of parsed.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      if (b['type'] !== 'tool_result' || typeof b['tool_use_id'] !== 'string') continue;
      const content = b['content'];
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? (content as Array<Record<string, unknown>>).map((c) => (typeof c['text'] === 'string' ? c['text'] : '')).join('')
            : '';
      results.set(b['tool_use_id'], { toolUseId: b['tool_use_id'], isError: b['is_error'] === true, text, content });
    }
  }
  return results;
}
