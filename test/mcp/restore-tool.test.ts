import { describe, expect, it } from 'vitest';
import { renderRestore } from '../../src/mcp/restore-tool.js';

const SHA = 'a'.repeat(64);

describe('renderRestore', () => {
  it('should put one header line (bytes, sha256, verified) before the text, verbatim', () => {
    const text = 'line 1\n  café ✓\n\nlast';
    const result = renderRestore({ kind: 'restored', handle: SHA, source: 'elided tool result', bytes: Buffer.from(text) });
    const [header, ...rest] = result.content[0]!.text.split('\n');
    expect(result.isError).toBeUndefined();
    expect(header).toBe(
      `[ctxshed restore: ${Buffer.byteLength(text)} bytes, sha256 ${SHA}; verified: re-hashed just now and it matches; the text follows this line verbatim]`,
    );
    expect(rest.join('\n')).toBe(text);
  });

  it('should give a span its rendering after a header naming the verified bytes, never the raw JSON', () => {
    const bytes = Buffer.from('{"role":"user","content":"hi"}');
    const rendering = '# ctxshed span\n\n1 message\n';
    const result = renderRestore({ kind: 'restored', handle: SHA, source: 'shed span', bytes, rendering });
    const [header, ...rest] = result.content[0]!.text.split('\n');
    expect(result.isError).toBeUndefined();
    expect(header).toBe(
      `[ctxshed restore: shed span, ${bytes.length} bytes, sha256 ${SHA}; verified: its exact bytes re-hashed just now and they match; their readable rendering, made from those bytes, follows this line]`,
    );
    expect(rest.join('\n')).toBe(rendering);
  });

  it('should answer a long text in pages, each header saying which characters follow and where the rest starts', () => {
    const text = Array.from({ length: 1500 }, (_, i) => `line ${i} ${'y'.repeat(30)}`).join('\n');
    const outcome = { kind: 'restored', handle: SHA, source: 'elided tool result', bytes: Buffer.from(text) } as const;
    const first = renderRestore(outcome).content[0]!.text;
    const [header, ...rest] = first.split('\n');
    const end = rest.join('\n').length;
    expect(header).toBe(
      `[ctxshed restore: ${text.length} bytes, sha256 ${SHA}; verified: re-hashed just now and it matches; characters 0 to ${end} of ${text.length} of the text follow this line verbatim; for the rest, call restore again with offset ${end}. It stops there at the page limit: one answer carries at most 40,000 characters.]`,
    );
    const second = renderRestore(outcome, end).content[0]!.text;
    expect(second.split('\n')[0]).toContain(`characters ${end} to ${text.length} of ${text.length} of the text follow this line verbatim (the last page)]`);
    expect(rest.join('\n') + second.split('\n').slice(1).join('\n')).toBe(text);
    const span = renderRestore({ kind: 'restored', handle: SHA, source: 'shed span', bytes: Buffer.from('{}'), rendering: text }, end).content[0]!.text;
    expect(span.split('\n')[0]).toContain(
      `their readable rendering, made from those bytes: characters ${end} to ${text.length} of ${text.length} follow this line (the last page)]`,
    );
    expect(renderRestore(outcome, text.length + 1)).toMatchObject({
      isError: true,
      content: [{ text: `ctxshed: offset ${text.length + 1} is past the end of the text of ${SHA} (${text.length} characters)` }],
    });
  });

  describe('why a page stops where it does', () => {
    const text = Array.from({ length: 1500 }, (_, i) => `line ${i} ${'y'.repeat(30)}`).join('\n');
    const outcome = { kind: 'restored', handle: SHA, source: 'elided tool result', bytes: Buffer.from(text) } as const;
    const roomOf = (fullness: number, leftTokens: number, given = 0) => ({ key: 'k'.repeat(64), at: 't', fullness, window: 200_000, leftTokens, given });
    const headerOf = (room?: ReturnType<typeof roomOf>): string => renderRestore(outcome, 0, room).content[0]!.text.split('\n')[0]!;
    const bodyOf = (room?: ReturnType<typeof roomOf>): string => renderRestore(outcome, 0, room).content[0]!.text.split('\n').slice(1).join('\n');

    it('should say the page limit stopped it, and how much room the window had when the state says', () => {
      const header = headerOf(roomOf(0.62, 76_000));

      expect(header).toMatch(
        /offset \d+\. It stops there at the page limit: one answer carries at most 40,000 characters; the conversation had about 76,000 of its 200,000 tokens left \(62% full at its last request\)\.\]$/,
      );
      expect(bodyOf(roomOf(0.62, 76_000)).length).toBe(bodyOf().length);
    });

    it('should give a shorter page when the window has less room than a page, and say so', () => {
      const room = roomOf(0.95, 10_000);
      const body = bodyOf(room);

      // Half the 10,000 tokens left, at 4 characters a token: 20,000 characters at most.
      expect(body.length).toBeLessThanOrEqual(20_000);
      expect(body.length).toBeGreaterThan(19_000);
      expect(headerOf(room)).toContain(
        `characters 0 to ${body.length} of ${text.length} of the text follow this line verbatim; for the rest, call restore again with offset ${body.length}. It stops there to leave room in the window: the conversation had about 10,000 of its 200,000 tokens left (95% full at its last request), and one page takes at most half of what is left.]`,
      );
    });

    it('should count what it gave since the last request against the room (room-ledger.ts)', () => {
      expect(headerOf(roomOf(0.9, 6_000, 4_000))).toContain(
        'about 6,000 of its 200,000 tokens left (90% full at its last request, less about 4,000 this restore tool gave back since)',
      );
    });

    it('should give nothing when the window is full, and say plainly that the model works from what it has (issue 39)', () => {
      const room = roomOf(1.02, 0);
      const answer = renderRestore(outcome, 40, room);

      expect(answer.isError).toBeUndefined();
      expect(answer.content[0]!.text).toBe(
        `[ctxshed restore: ${text.length} bytes, sha256 ${SHA}, ${text.length} characters from offset 0; nothing of it follows: the conversation's window is full ` +
          '(the conversation had about 0 of its 200,000 tokens left (102% full at its last request)). ' +
          "What was brought back since the person's latest prompt stays in the window (ctxshed never takes it out), and there is no room for more: " +
          'work from what is already in front of you. After the next prompt, or once the client compacts, there may be room again: call restore with offset 40 then.]',
      );
      // Under the floor of a page, nothing either: the model must not page on a few characters at a time.
      expect(bodyOf(roomOf(0.99, 900))).toBe('');
    });

    it('should say how much room is left on a whole text too', () => {
      const short = { kind: 'restored', handle: SHA, source: 'elided tool result', bytes: Buffer.from('short text') } as const;
      expect(renderRestore(short, 0, roomOf(0.5, 100_000)).content[0]!.text.split('\n')[0]).toContain(
        'the text follows this line verbatim; the conversation had about 100,000 of its 200,000 tokens left (50% full at its last request)]',
      );
    });
  });

  it('should answer every miss and refusal as a one-line tool error', () => {
    const outcomes = [
      { kind: 'invalid', why: 'a handle needs at least 12 hex digits, not 3' },
      { kind: 'unknown', prefix: 'abcdefabcdef' },
      { kind: 'ambiguous', prefix: 'abcdefabcdef', handles: [SHA, 'b'.repeat(64)] },
      {
        kind: 'sealed',
        handle: SHA,
        seal: { format: 'ctxshed.seal/1', sha256: SHA, bytes: 3, reason: 'a token', sealedAt: '2026-01-01T00:00:00.000Z', raw: [] },
      },
      { kind: 'sealed', handle: SHA, seal: undefined },
      { kind: 'corrupt', handle: SHA, actual: 'c'.repeat(64) },
      { kind: 'missing', handle: SHA },
      { kind: 'refused', handle: SHA, why: `/s/elided/${SHA}.txt is a FIFO (named pipe), not a regular file` },
    ] as const;
    for (const outcome of outcomes) {
      const result = renderRestore(outcome);
      expect(result.isError, outcome.kind).toBe(true);
      expect(result.content[0]!.text).toMatch(/^ctxshed: [^\n]+$/);
    }
    expect(renderRestore(outcomes[3]).content[0]!.text).toBe(
      `ctxshed: block ${SHA} is sealed on 2026-01-01T00:00:00.000Z (a token): its text is kept but not given back. Only the user can unseal it (ctxshed unseal).`,
    );
    expect(renderRestore(outcomes[7]).content[0]!.text).toBe(
      `ctxshed: refusing to read the text of ${SHA}: /s/elided/${SHA}.txt is a FIFO (named pipe), not a regular file; ctxshed verify says more.`,
    );
  });
});
