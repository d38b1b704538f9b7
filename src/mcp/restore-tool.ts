/** The `restore` tool: its definition for tools/list, and its answer for each outcome. */
import { readPagesOf } from '../core/index.js';
import { MIN_HANDLE_HEX_DIGITS } from '../restore/restore-handle.js';
import type { RestoreOutcome } from '../restore/restore-text.js';
import { pageOf, RESTORE_PAGE_CHARS, type Page } from './restore-page.js';
import type { LedgerRoom } from './room-ledger.js';
import { pageLimitOf, roomNote, whyItStops, windowFullText } from './restore-why.js';
import { errorResult, textResult, type ToolText } from './tool-result.js';

export const RESTORE_TOOL_NAME = 'restore';

/** As tools/list gives it. */
export const RESTORE_TOOL = {
  name: RESTORE_TOOL_NAME,
  title: 'Restore what ctxshed moved out of the context',
  description:
    'Gives back what ctxshed moved out of the context to save space: a tool result, or a span of earlier messages (shed mode). ' +
    `Its stub names a sha256 (a span's stub calls it the handle); pass that, or its first ${MIN_HANDLE_HEX_DIGITS} or more hex digits. ` +
    "The answer is one header line (bytes, sha256, verified) and then a tool result's text exactly as it was, or a span rendered for reading " +
    `(who said what, tool calls and their results). A text longer than ${RESTORE_PAGE_CHARS} characters comes in pages (shorter ones when the ` +
    "conversation's window has little room left): the header says which characters follow, why the page stops there, how much room the " +
    'window has, and the offset to call restore with for the rest. When the window is full it gives nothing and says so: work from what ' +
    'you have. Sealed blocks are refused.',
  inputSchema: {
    type: 'object',
    properties: {
      handle: { type: 'string', description: `The sha256 (handle) from the stub, or its first ${MIN_HANDLE_HEX_DIGITS}+ hex digits` },
      offset: { type: 'integer', minimum: 0, description: "Where the page starts, in characters of the text (default 0); a page's header gives the next one" },
    },
    required: ['handle'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

/**
 * The tool's answer to an outcome, the page of its text from `offset` (characters), no longer than
 * the room `room` says the conversation's window has left (restore-why.ts). Only a restored text
 * is a success; everything else, and an offset past the text's end, is `isError`.
 */
export function renderRestore(outcome: RestoreOutcome, offset = 0, room?: LedgerRoom): ToolText {
  switch (outcome.kind) {
    case 'restored': {
      // A span's exact JSON is for inflate; the model gets who said what, made from the verified bytes.
      const text = outcome.rendering ?? new TextDecoder().decode(outcome.bytes);
      const limit = pageLimitOf(room);
      if (!Number.isInteger(offset) || offset < 0 || offset > text.length) {
        return errorResult(`ctxshed: offset ${offset} is past the end of the text of ${outcome.handle} (${text.length} characters)`);
      }
      // No room: nothing of the text, said plainly (issue 39), so the model works from what it has.
      if (limit.by === 'window_full') {
        const what = `${outcome.rendering === undefined ? '' : `${outcome.source}, `}${outcome.bytes.byteLength} bytes, sha256 ${outcome.handle}, ${text.length} characters from offset 0`;
        return textResult(windowFullText(what, offset, room));
      }
      const page = pageOf(text, offset, limit.maxChars, outcome.rendering === undefined ? [] : readStops(text));
      const next = (p: Page): string =>
        p.end < p.total ? `; for the rest, call restore again with offset ${p.end}. ${whyItStops(limit, room)}` : ` (the last page${roomNote(room)})`;
      if (page === undefined) return errorResult(`ctxshed: offset ${offset} is past the end of the text of ${outcome.handle} (${text.length} characters)`);
      const body = text.slice(page.start, page.end);
      if (outcome.rendering !== undefined) {
        const what = whole(page)
          ? `their readable rendering, made from those bytes, follows this line${roomNote(room)}`
          : `their readable rendering, made from those bytes: ${part(page)} follow this line${next(page)}`;
        return textResult(
          `[ctxshed restore: ${outcome.source}, ${outcome.bytes.byteLength} bytes, sha256 ${outcome.handle}; verified: its exact bytes re-hashed just now and they match; ${what}]\n${body}`,
        );
      }
      // Elided text comes from JSON strings and is UTF-8; say so if this one does not round-trip.
      const exact = Buffer.from(text, 'utf8').equals(Buffer.from(outcome.bytes));
      const what = !exact
        ? `not valid UTF-8, shown with replacement characters${whole(page) ? '' : `: ${part(page)}${next(page)}`}`
        : whole(page)
          ? `the text follows this line verbatim${roomNote(room)}`
          : `${part(page)} of the text follow this line verbatim${next(page)}`;
      return textResult(
        `[ctxshed restore: ${outcome.bytes.byteLength} bytes, sha256 ${outcome.handle}; verified: re-hashed just now and it matches; ${what}]\n${body}`,
      );
    }
    case 'invalid':
      return errorResult(`ctxshed: ${outcome.why}`);
    case 'unknown':
      return errorResult(`ctxshed: nothing restorable has a sha256 starting ${outcome.prefix} (the spans tool lists what there is)`);
    case 'ambiguous':
      return errorResult(`ctxshed: ${outcome.prefix} starts ${outcome.handles.length} sha256s (${outcome.handles.join(', ')}); give more digits`);
    case 'sealed': {
      const why = outcome.seal === undefined ? '' : ` on ${outcome.seal.sealedAt}${outcome.seal.reason === null ? '' : ` (${outcome.seal.reason})`}`;
      return errorResult(
        `ctxshed: block ${outcome.handle} is sealed${why}: its text is kept but not given back. Only the user can unseal it (ctxshed unseal).`,
      );
    }
    case 'corrupt':
      return errorResult(
        `ctxshed: the file of ${outcome.handle} no longer matches its sha256 (it hashes to ${outcome.actual}); not given back. ctxshed verify says more.`,
      );
    case 'missing':
      return errorResult(`ctxshed: the text of ${outcome.handle} is not in the state directory any more; ctxshed verify says more.`);
    case 'refused':
      return errorResult(`ctxshed: refusing to read the text of ${outcome.handle}: ${outcome.why}; ctxshed verify says more.`);
  }
}

/** Where the pages a span's stub names for Read start, in characters of its rendering (core/shed/read-pages.ts). */
function readStops(text: string): number[] {
  const pages = readPagesOf(text);
  if (pages.length === 0) return [];
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  return pages.slice(1).map(([offset]) => lineStarts[offset - 1]!);
}

function whole(page: Page): boolean {
  return page.start === 0 && page.end === page.total;
}

function part(page: Page): string {
  return `characters ${page.start} to ${page.end} of ${page.total}`;
}
