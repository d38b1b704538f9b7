/**
 * What the labels do on real sessions: `node dist/test/bench/labels-replay.js [--window N] TRANSCRIPT...`.
 * Replays each session with the defaults (as `ctxshed replay` does, epochs now labelled by the
 * local rules), then reads the epochs it latched and reports:
 * - the ledger's rows by rule and verdict;
 * - the bytes of the version 3 stubs against the version 2 stubs the same blocks would have had;
 * - how often the recorded session, after the latch, made the same call again (same tool, same
 *   main input) as a block that was dropped, and as one that was pointed at. A drop the session
 *   later re-read is a drop the model would have had to fetch back: that should be near zero.
 * docs/economics.md ("Labels on the shared transcripts") quotes its output.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeInput } from '../../src/core/labels/describe-call.js';
import { mainInputOf } from '../../src/core/labels/main-input.js';
import { renderStub } from '../../src/core/stub.js';
import type { ConversationRecord, FrozenBlock } from '../../src/core/epoch-types.js';
import type { LedgerRow } from '../../src/core/labels/label-types.js';
import type { ToolCall } from '../../src/core/read-tool-calls.js';
import { readSessions } from '../../src/replay/read-sessions.js';
import type { RebuiltConversation } from '../../src/replay/rebuild-conversations.js';
import { replaySession } from '../../src/replay/replay-session.js';
import { blocksOf } from '../../src/core/epoch-items.js';

interface Tally {
  rows: Record<string, number>;
  v3StubBytes: number;
  v2StubBytes: number;
  blocks: number;
  textBytes: number;
  calledAgain: { drop: number; pointer: number; dropRows: number; pointerRows: number };
  examples: string[];
}

const tally: Tally = {
  rows: {},
  v3StubBytes: 0,
  v2StubBytes: 0,
  blocks: 0,
  textBytes: 0,
  calledAgain: { drop: 0, pointer: 0, dropRows: 0, pointerRows: 0 },
  examples: [],
};

// `--window N` replays as if the window were N tokens (more epochs on the same sessions).
const args = process.argv.slice(2);
const windowAt = args.indexOf('--window');
const window = windowAt < 0 ? undefined : Number(args.splice(windowAt, 2)[1]);

for (const session of await readSessions(args)) {
  if (session.conversations.length === 0) continue;
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-labels-replay-'));
  const shedStateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-labels-replay-shed-'));
  try {
    await replaySession(session.file, session.conversations, {
      settings: window === undefined ? {} : { window },
      stateDir,
      shedStateDir,
    });
    const dir = path.join(stateDir, 'conversations');
    for (const name of (await fs.readdir(dir)).filter((n) => n.endsWith('.json'))) {
      const record = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as ConversationRecord;
      for (const epoch of record.epochs)
        count(record, epoch.latchedAt, blocksOf(epoch), epoch.ledger ?? [], session.conversations, path.join(stateDir, 'elided'));
    }
  } finally {
    await fs.rm(stateDir, { recursive: true, force: true });
    await fs.rm(shedStateDir, { recursive: true, force: true });
  }
}

const pct = (a: number, b: number): string => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
console.log('ledger rows by rule/verdict:', JSON.stringify(tally.rows));
console.log(`blocks frozen: ${tally.blocks}, text ${tally.textBytes} bytes`);
console.log(
  `stub bytes: version 3 ${tally.v3StubBytes}, version 2 ${tally.v2StubBytes} (${tally.v3StubBytes - tally.v2StubBytes >= 0 ? '+' : ''}${tally.v3StubBytes - tally.v2StubBytes})`,
);
const c = tally.calledAgain;
console.log(
  `same call made again after the latch: drop ${c.drop} of ${c.dropRows} (${pct(c.drop, c.dropRows)}), pointer ${c.pointer} of ${c.pointerRows} (${pct(c.pointer, c.pointerRows)})`,
);
for (const example of tally.examples.slice(0, 10)) console.log(`  ${example}`);

function count(
  record: ConversationRecord,
  latchedAt: string,
  blocks: readonly FrozenBlock[],
  ledger: readonly LedgerRow[],
  conversations: readonly RebuiltConversation[],
  elidedDir: string,
): void {
  for (const row of ledger) tally.rows[`${row.rule}/${row.verdict}`] = (tally.rows[`${row.rule}/${row.verdict}`] ?? 0) + 1;
  for (const block of blocks) {
    const { label: _l, rule: _r, tool: _t, input: _i, refetch: _f, ...v2 } = block;
    tally.v3StubBytes += Buffer.byteLength(JSON.stringify(renderStub(block, elidedDir)));
    tally.v2StubBytes += Buffer.byteLength(JSON.stringify(renderStub(v2, elidedDir)));
    tally.blocks += 1;
    tally.textBytes += block.bytes;
  }
  // The conversation and request that latched: the replay stamps an epoch with its request's time.
  const at = Date.parse(latchedAt);
  for (const conversation of conversations) {
    const latching = conversation.requests.findIndex((r) => r.timeMs === at);
    if (latching < 0) continue;
    const seen = conversation.requests[latching]!.messages.length;
    const last = conversation.requests[conversation.requests.length - 1]!;
    const later = last.messages
      .slice(seen)
      .flatMap((m) => m.content)
      .filter(isToolUse)
      .map((b) => `${b.name} ${describeInput(mainInputOf(asCall(b)))}`);
    if (!blocks.some((b) => conversation.requests[latching]!.messages.some((m) => m.content.some((x) => isToolUse(x) && x.id === b.toolUseId)))) continue;
    for (const block of blocks) {
      if (block.label === undefined) continue;
      const again = later.includes(`${block.tool} ${block.input}`);
      if (block.label === 'drop') {
        tally.calledAgain.dropRows += 1;
        if (again) {
          tally.calledAgain.drop += 1;
          tally.examples.push(`drop (${block.rule}) called again: ${block.tool} ${block.input} [${record.key.slice(0, 12)}]`);
        }
      } else {
        tally.calledAgain.pointerRows += 1;
        if (again) tally.calledAgain.pointer += 1;
      }
    }
  }
}

interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

function isToolUse(block: unknown): block is ToolUseBlock {
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_use';
}

function asCall(block: ToolUseBlock): ToolCall {
  const strings = Object.entries(block.input ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  const numbers = new Map(Object.entries(block.input ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number'));
  return { id: block.id, name: block.name, strings, numbers };
}
