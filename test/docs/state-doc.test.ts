import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const doc = fs.readFileSync(new URL('../../docs/state.md', import.meta.url), 'utf8');
const example = new URL('../../state.example/', import.meta.url);
const wireLines = fs.readFileSync(new URL('wire.jsonl', example), 'utf8').trimEnd().split('\n');
const recordFile = fs.readdirSync(new URL('conversations/', example))[0]!;
const record = JSON.parse(fs.readFileSync(new URL(`conversations/${recordFile}`, example), 'utf8')) as {
  epochs: Array<Record<string, unknown> & { blocks: Array<Record<string, unknown>> }>;
};

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

  it('should document every field of the record, its epochs and its blocks in state.example', () => {
    const documented = fieldsOf('`conversations/<key>.json`');
    const used = new Set([
      ...Object.keys(record),
      ...record.epochs.flatMap((e) => Object.keys(e)),
      ...record.epochs.flatMap((e) => e.blocks.flatMap((b) => Object.keys(b))),
    ]);

    expect([...used].filter((field) => !documented.includes(field))).toEqual([]);
  });

  it('should show the record of state.example, cut to its first block', () => {
    const [shown] = jsonBlocks('`conversations/<key>.json`');
    const cut = { ...record, epochs: record.epochs.map((e) => ({ ...e, blocks: e.blocks.slice(0, 1) })) };

    expect(JSON.parse(shown!)).toEqual(cut);
  });
});
