import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { markEstimated, stitchTranscript } from '../../src/replay/stitch-transcript.js';
import { REPO_ROOT } from '../cli/cli-run.js';
import { assistant, fixtureLines, line, user } from './fixtures.js';

/** A long shared session with one auto compaction (test/fixtures/sessions, MIT, see its SOURCES.md). */
const SHARED = path.join(REPO_ROOT, 'test', 'fixtures', 'sessions', '258c7280-ae70-4798-800f-63464d01a85d.jsonl');

describe('stitchTranscript', () => {
  it('should give a transcript with no compaction back unchanged', () => {
    // Arrange
    const lines = fixtureLines('tool_heavy.jsonl');

    // Act
    const stitched = stitchTranscript(lines);

    // Assert
    expect(stitched.boundaries).toEqual([]);
    expect(stitched.lines).toBe(lines);
    expect(rebuildConversations(stitched.lines, 'x')).toEqual(rebuildConversations(lines, 'x'));
  });

  it('should drop the boundary and the summary and re-link the next record to the last one before the boundary', () => {
    // Arrange
    const lines = [
      user('first'),
      assistant('msg_1', { type: 'text', text: 'a' }),
      line({ type: 'user', uuid: 'u-last', message: { role: 'user', content: 'second' } }),
      line({ type: 'system', subtype: 'compact_boundary', uuid: 'b', parentUuid: null, logicalParentUuid: 'u-last', compactMetadata: { trigger: 'auto' } }),
      line({ type: 'user', uuid: 's', parentUuid: 'b', isCompactSummary: true, message: { role: 'user', content: 'summary' } }),
      line({
        type: 'assistant',
        uuid: 'n',
        parentUuid: 's',
        timestamp: '2026-02-10T23:00:00.000Z',
        message: { model: 'claude-opus-4-6', id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'b' }] },
      }),
    ];

    // Act
    const stitched = stitchTranscript(lines);
    const conversations = rebuildConversations(stitched.lines, 'x');

    // Assert
    expect(stitched.boundaries).toEqual([{ timeMs: Date.parse('2026-02-10T22:57:54.684Z'), trigger: 'auto', summaryUuid: 's' }]);
    expect(stitched.lines).toHaveLength(4);
    expect((JSON.parse(stitched.lines[3] ?? '{}') as { parentUuid: string }).parentUuid).toBe('u-last');
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.requests.map((r) => r.id)).toEqual(['msg_1', 'msg_2']);
    expect(JSON.stringify(conversations[0]?.requests[1]?.messages)).not.toContain('summary');
  });

  it('should hold every real turn of a shared session in order, and flag the requests past the boundary as estimated', () => {
    // Arrange
    const lines = fs.readFileSync(SHARED, 'utf8').split('\n');
    const recorded = rebuildConversations(lines, 'x').filter((c) => c.kind === 'main');

    // Act
    const stitch = stitchTranscript(lines);
    const [whole, ...others] = markEstimated(
      rebuildConversations(stitch.lines, 'x').filter((c) => c.kind === 'main'),
      stitch.boundaries,
    );

    // Assert: one conversation, every recorded request in the recorded order, the summary gone
    expect(recorded).toHaveLength(2);
    expect(others).toEqual([]);
    expect(whole?.requests.map((r) => r.id)).toEqual(recorded.flatMap((c) => c.requests.map((r) => r.id)));
    const last = JSON.stringify(whole?.requests.at(-1)?.messages);
    expect(last).not.toContain('This session is being continued from a previous conversation');
    // The last request holds the first request's prompt and every message the recorded ones had, in order.
    expect(JSON.stringify(whole?.requests.at(-1)?.messages.slice(0, recorded[0]?.requests.at(-1)?.messages.length))).toBe(
      JSON.stringify(recorded[0]?.requests.at(-1)?.messages),
    );
    const firstAfter = recorded[0]?.requests.length ?? 0;
    expect(whole?.requests.slice(0, firstAfter).every((r) => r.estimated !== true)).toBe(true);
    expect(whole?.requests.slice(firstAfter).every((r) => r.estimated === true)).toBe(true);
  });
});
