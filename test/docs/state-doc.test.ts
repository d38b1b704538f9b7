import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const doc = fs.readFileSync(new URL('../../docs/state.md', import.meta.url), 'utf8');
const example = new URL('../../state.example/', import.meta.url);
const wireLines = fs.readFileSync(new URL('wire.jsonl', example), 'utf8').trimEnd().split('\n');
type Items = { tool_results?: Array<Record<string, unknown>>; span?: Array<Record<string, unknown>> };
type RecordJson = Record<string, unknown> & { epochs: Array<Record<string, unknown> & { kind: string; items: Items }> };
const records = fs
  .readdirSync(new URL('conversations/', example))
  .sort()
  .map((name) => JSON.parse(fs.readFileSync(new URL(`conversations/${name}`, example), 'utf8')) as RecordJson);
// The rescue conversation (the example shown) and the shed one, made by `ctxshed demo --mode shed`.
const record = records.find((r) => r.epochs.every((e) => e.kind === 'tool_results'))!;
const shed = records.find((r) => r.epochs.some((e) => e.kind === 'span'))!;

/** The names in the first column of the tables of the section that starts with `heading`. */
function fieldsOf(heading: string): string[] {
  const section = doc.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| `([A-Za-z0-9]+)` \|/gm)].map((m) => m[1]!);
}

function jsonBlocks(heading: string): string[] {
  const section = doc.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
}

describe('docs/state.md', () => {
  it('should document every field of every wire line in state.example', () => {
    const documented = fieldsOf('`wire.jsonl`');
    const used = new Set(wireLines.flatMap((line) => Object.keys(JSON.parse(line) as object)));

    expect([...used].filter((field) => !documented.includes(field))).toEqual([]);
  });

  it('should show wire lines that are lines of state.example', () => {
    const examples = jsonBlocks('`wire.jsonl`');

    expect(examples.length).toBeGreaterThan(0);
    for (const line of examples) expect(wireLines).toContain(line);
  });

  it('should document every field of the records, their epochs, blocks and spans in state.example', () => {
    const documented = fieldsOf('`conversations/<key>.json`');
    const used = new Set(
      [record, shed].flatMap((r) => [
        ...Object.keys(r),
        ...r.epochs.flatMap((e) => Object.keys(e)),
        ...r.epochs.flatMap((e) => (e.items.tool_results ?? []).flatMap((b) => Object.keys(b))),
        ...r.epochs.flatMap((e) => (e.items.span ?? []).flatMap((s) => Object.keys(s))),
      ]),
    );

    expect(shed).toBeDefined();
    expect([...used].filter((field) => !documented.includes(field))).toEqual([]);
  });

  it('should show the shed epoch of state.example as it is', () => {
    const [, shown] = jsonBlocks('`conversations/<key>.json`');

    expect(JSON.parse(shown!)).toEqual(shed.epochs[0]);
  });

  it('should show the record of state.example, cut to its first block', () => {
    const [shown] = jsonBlocks('`conversations/<key>.json`');
    const cut = { ...record, epochs: record.epochs.map((e) => ({ ...e, items: { tool_results: e.items.tool_results!.slice(0, 1) } })) };

    expect(JSON.parse(shown!)).toEqual(cut);
  });
});
