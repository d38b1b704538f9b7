/** The `spans` tool: what can be restored, newest conversations first, as plain lines. */
import type { RestorableBlock, RestorableList, RestorableOriginal, RestorableSpan } from '../restore/list-restorable.js';
import { MIN_HANDLE_HEX_DIGITS } from '../restore/restore-handle.js';
import { oneLine, promptForDisplay } from '../report/format-table.js';
import { textResult, type ToolText } from './tool-result.js';

export const SPANS_TOOL_NAME = 'spans';
/** Blocks listed when the call gives no limit: enough for a long session, small beside a window. */
export const DEFAULT_SPANS_LIMIT = 100;
export const MAX_SPANS_LIMIT = 1000;
/** A prompt or tool input is cut to this many characters in a line. */
const EXCERPT_CHARS = 80;

/** As tools/list gives it. */
export const SPANS_TOOL = {
  name: SPANS_TOOL_NAME,
  title: 'List what ctxshed can restore',
  description:
    'Lists what ctxshed moved out of the context and can give back with restore, newest conversation first: ' +
    "for each tool result, its sha256, bytes, the tool that produced it and that tool's main input when known, the epoch, and whether it is sealed " +
    '(sealed ones are not given back); for each shed span of earlier messages (shed mode), its handle, bytes, epoch and how many messages it holds; ' +
    'for each original of another kind, its handle, bytes, epoch and what it is.',
  inputSchema: {
    type: 'object',
    properties: {
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SPANS_LIMIT,
        description: `List at most this many blocks, spans and other originals (default ${DEFAULT_SPANS_LIMIT})`,
      },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

/** The listing, at most `limit` blocks, spans and other originals, saying how many more there are. */
export function renderSpans(list: RestorableList, limit: number): ToolText {
  const blocks = list.conversations.reduce((n, c) => n + c.blocks.length, 0);
  const spans = list.conversations.reduce((n, c) => n + c.spans.length, 0);
  const originals = list.conversations.reduce((n, c) => n + c.originals.length, 0);
  const total = blocks + spans + originals;
  const sealed = list.conversations.reduce((n, c) => n + c.blocks.filter((b) => b.sealed).length, 0);
  const counted = [
    ...(blocks > 0 || spans + originals === 0 ? [plural(blocks, 'block')] : []),
    ...(spans > 0 ? [plural(spans, 'shed span')] : []),
    ...(originals > 0 ? [plural(originals, 'other original')] : []),
  ].join(' and ');
  const lines = [
    `ctxshed: ${counted} in ${plural(list.conversations.length, 'conversation')}${sealed > 0 ? ` (${sealed} sealed)` : ''}, newest conversation first. ` +
      `restore takes a sha256 or its first ${MIN_HANDLE_HEX_DIGITS}+ hex digits.`,
  ];
  let shown = 0;
  for (const c of list.conversations) {
    if (shown >= limit) break;
    const prompt = cut(promptForDisplay(c.firstPrompt));
    lines.push(
      '',
      `conversation ${c.key.slice(0, 12)}${c.agentId === null ? '' : ` (subagent ${oneLine(c.agentId)})`}: "${prompt}", last epoch ${c.lastLatchedAt}`,
    );
    for (const line of [...c.blocks.map(blockLine), ...c.spans.map(spanLine), ...c.originals.map(originalLine)]) {
      if (shown >= limit) break;
      lines.push(`  ${line}`);
      shown += 1;
    }
  }
  if (shown < total) lines.push('', `${total - shown} more not shown; call spans with a larger limit (at most ${MAX_SPANS_LIMIT}).`);
  for (const name of list.unreadable) lines.push(`note: conversations/${name} does not read (ctxshed verify says why)`);
  return textResult(`${lines.join('\n')}\n`);
}

function blockLine(b: RestorableBlock): string {
  const origin = b.tool === undefined ? `tool unknown (${b.toolUseId})` : `${oneLine(b.tool)}${b.input === undefined ? '' : ` ${cut(oneLine(b.input))}`}`;
  const state = b.sealed ? '  SEALED: not restorable' : b.present ? '' : '  MISSING: not in the state directory';
  return `${b.sha256}  ${b.bytes} bytes  epoch ${b.epoch}  ${origin}${state}`;
}

function spanLine(s: RestorableSpan): string {
  const pins = s.pins === 0 ? '' : `, ${plural(s.pins, 'goal pin')}`;
  const state = s.present ? '' : '  MISSING: not in the state directory';
  return `${s.sha256}  ${s.bytes} bytes  epoch ${s.epoch}  shed span: ${plural(s.messages, 'message')} (${s.first}..${s.last})${pins}${state}`;
}

/** A registered kind's original (docs/adding-a-kind.md): its handle, size, epoch and the kind's name. */
function originalLine(o: RestorableOriginal): string {
  const state = o.present ? '' : '  MISSING: not in the state directory';
  return `${o.sha256}  ${o.bytes === null ? 'size unknown' : `${o.bytes} bytes`}  epoch ${o.epoch}  ${oneLine(o.kind)}${state}`;
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
