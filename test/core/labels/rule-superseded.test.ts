import { describe, expect, it } from 'vitest';
import { labelBlocks } from '../../../src/core/labels/label-blocks.js';
import { planElision } from '../../../src/core/plan-elision.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { covers, findSuperseded } from '../../../src/core/labels/rule-superseded.js';
import { sha256 } from '../bodies.js';
import type { ToolCall } from '../../../src/core/read-tool-calls.js';
import { session } from './rules.js';
import { bulk, read, type Call } from './session-body.js';

const BIG = bulk(2000);

function superseded(calls: readonly Call[]): number[] {
  const s = session(calls);
  return [...findSuperseded(s.index, s.calls, s.candidates)].sort((a, b) => a - b);
}

describe('findSuperseded', () => {
  it('should drop a Read that a later Read of the same path repeats', () => {
    expect(superseded([read('/a.ts', BIG), read('/b.ts', BIG), read('/a.ts', bulk(2000, 1))])).toEqual([0]);
  });

  it.each(['Write', 'Edit', 'MultiEdit'])('should drop a Read that a later %s of the same path changed', (writer) => {
    expect(superseded([read('/a.ts', BIG), { name: writer, input: { file_path: '/a.ts', old_string: 'x', new_string: 'y' }, result: 'ok' }])).toEqual([0]);
  });

  it('should keep a Read when the later Edit failed (the file did not change)', () => {
    expect(superseded([read('/a.ts', BIG), { name: 'Edit', input: { file_path: '/a.ts' }, result: 'String not found', isError: true }])).toEqual([]);
  });

  it('should keep the newest Read of a path, and any Read of another path', () => {
    expect(superseded([read('/a.ts', BIG), read('/a.ts', bulk(2000, 1)), read('/a.ts', bulk(2000, 2)), read('/c.ts', BIG)])).toEqual([0, 1]);
  });

  it('should keep a ranged Read when the later Read shows other lines', () => {
    expect(superseded([read('/a.ts', BIG, { offset: 100, limit: 50 }), read('/a.ts', bulk(2000, 1), { offset: 1, limit: 50 })])).toEqual([]);
  });

  it('should drop a ranged Read when the later Read covers its lines', () => {
    expect(superseded([read('/a.ts', BIG, { offset: 100, limit: 50 }), read('/a.ts', bulk(2000, 1))])).toEqual([0]);
  });

  it('should never take a Read for superseded by an earlier call, or a non-Read result at all', () => {
    expect(
      superseded([
        { name: 'Write', input: { file_path: '/a.ts' }, result: BIG },
        read('/a.ts', bulk(2000, 1)),
        { name: 'Bash', input: { command: 'cat /a.ts' }, result: BIG },
      ]),
    ).toEqual([]);
  });

  it('should only look at the candidates it is given', () => {
    // Arrange
    const s = session([read('/a.ts', BIG), read('/a.ts', bulk(2000, 1))]);

    // Act
    const found = findSuperseded(s.index, s.calls, []);

    // Assert
    expect(found.size).toBe(0);
  });
});

describe('covers', () => {
  const call = (offset?: number, limit?: number): ToolCall => ({
    id: 't',
    name: 'Read',
    strings: [],
    numbers: new Map([...(offset === undefined ? [] : [['offset', offset] as const]), ...(limit === undefined ? [] : [['limit', limit] as const])]),
  });

  it.each([
    ['a whole read covers a range', call(), call(100, 20), true],
    ['a range does not cover a whole read', call(1, 2000), call(), false],
    ['an equal range covers', call(10, 5), call(10, 5), true],
    ['a wider range covers', call(5, 50), call(10, 5), true],
    ['a shifted range does not', call(11, 5), call(10, 5), false],
    ['offset 0 is line 1', call(0, 10), call(1, 10), true],
  ])('%s', (_case, later, earlier, expected) => {
    expect(covers(later, earlier)).toBe(expected);
  });
});

/** A Codex session as the Responses API carries it: each `exec_command` call and its output. */
function codexSession(commands: ReadonlyArray<readonly [cmd: string, output: string]>) {
  const input: object[] = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around.' }] },
  ];
  commands.forEach(([cmd, output], i) => {
    input.push({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, workdir: '/p' }), call_id: `call_${i}` });
    input.push({ type: 'function_call_output', call_id: `call_${i}`, output });
  });
  const body = new TextEncoder().encode(JSON.stringify({ model: 'gpt-test', input, stream: true }));
  const outcome = RESPONSES_API.index(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  const { index } = outcome;
  const plan = planElision(body, index, { keepRecent: 0, minBytes: 1024 }, sha256);
  return { body, index, plan, calls: RESPONSES_API.calls(body, index), candidates: plan.map((b) => b.ordinal) };
}

describe('findSuperseded on a Codex session', () => {
  it('should drop the output of a `cat f` that a later `cat f` shows again', () => {
    // Arrange
    const s = codexSession([
      ['cat notes.md', BIG],
      ['ls -la', BIG],
      ['cat notes.md', bulk(2000, 1)],
    ]);

    // Act
    const found = findSuperseded(s.index, s.calls, s.candidates);

    // Assert
    expect([...found]).toEqual([0]);
  });

  it('should keep a `cat` of another file, and a command that is more than a plain `cat`', () => {
    const s = codexSession([
      ['cat notes.md', BIG],
      ['cat other.md', BIG],
      ['cat notes.md | head', BIG],
      ['grep -n x notes.md', BIG],
    ]);

    expect([...findSuperseded(s.index, s.calls, s.candidates)]).toEqual([]);
  });

  it('should name the `cat` command in the label, and say why it is dropped', () => {
    const s = codexSession([
      ['cat notes.md', BIG],
      ['cat notes.md', bulk(2000, 1)],
    ]);

    const labels = labelBlocks({ body: s.body, index: s.index, candidates: s.plan, sha256, readCalls: RESPONSES_API.calls });

    expect(labels[0]).toMatchObject({ tool: 'exec_command', input: 'cat notes.md', rule: 'superseded', label: 'drop' });
  });
});
