import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { windowRoomOf } from '../../src/mcp/window-room.js';
import { serializeConversationRecord } from '../../src/state/conversation-record.js';
import { useStateDir } from '../state/fixtures/state-fixtures.js';
import { block, epoch, KEY_A, KEY_B, record, wire } from '../report/report-fixtures.js';

const SHA = '7'.repeat(64);

const dirs = useStateDir();

async function writeRecord(key: string, sha: string): Promise<void> {
  const r = record([epoch(1, '2026-01-01T00:00:00.000Z', [block(3, 5000, sha)])], key);
  await fs.writeFile(`${dirs.state.conversationsDir}/${key}.json`, serializeConversationRecord(r), { mode: 0o600 });
}

describe('windowRoomOf', () => {
  it('should read the room from the last reading the proxy logged for the conversation that froze the text', async () => {
    await writeRecord(KEY_A, SHA);
    await writeRecord(KEY_B, '8'.repeat(64));
    const lines = [
      wire({ t: '2026-01-01T00:00:01.000Z', fullness: 0.5, window: 200_000 }),
      wire({ t: '2026-01-01T00:00:02.000Z', fullness: 0.9, window: 200_000 }, KEY_B),
      wire({ t: '2026-01-01T00:00:03.000Z', fullness: 0.62, window: 200_000 }),
    ];
    await fs.writeFile(dirs.state.wirePath, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });

    expect(await windowRoomOf(dirs.state, SHA)).toEqual({ key: KEY_A, at: '2026-01-01T00:00:03.000Z', fullness: 0.62, window: 200_000, leftTokens: 76_000 });
  });

  it('should know nothing when no record froze the text, or the log has no reading of its conversation', async () => {
    await writeRecord(KEY_A, SHA);

    expect(await windowRoomOf(dirs.state, SHA)).toBeUndefined();
    expect(await windowRoomOf(dirs.state, '9'.repeat(64))).toBeUndefined();
  });
});
