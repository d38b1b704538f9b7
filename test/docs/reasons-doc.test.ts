import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOLD_REASONS } from '../../src/core/decide/hold-reasons.js';
import { PASSTHROUGH_REASONS } from '../../src/core/passthrough-reasons.js';
import { REFUSAL_REASONS } from '../../src/core/refusal-reasons.js';
import { SHED_REFUSALS, SHED_SHORT_REASONS, SPAN_SKIP_REASONS } from '../../src/core/shed/shed-types.js';
import { THINKING_SKIP_REASONS } from '../../src/core/thinking/thinking-types.js';

describe('docs/reasons.md', () => {
  it('should list exactly the pass-through reasons the code has', () => {
    const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
    const table = doc.split('## Per-block reasons')[0]!;
    const listed = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);

    expect(listed).toEqual(Object.keys(PASSTHROUGH_REASONS));
  });
});

describe('docs/reasons.md, shed mode', () => {
  const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
  const table = (heading: string) =>
    [
      ...doc
        .split(heading)[1]!
        .split('\n## ')[0]!
        .matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm),
    ].map((m) => [m[1], m[2]]);

  it('should list exactly the per-span reasons, in the words of the code', () => {
    expect(table('## Per-span reasons')).toEqual(Object.entries(SPAN_SKIP_REASONS));
  });

  it('should list exactly the reasons nothing is shed, in the words of the code', () => {
    expect(table('## Why nothing is shed')).toEqual(Object.entries(SHED_REFUSALS));
  });

  it('should list exactly the reasons a shed epoch stops short of the window, in the words of the code', () => {
    expect(table('## Why a shed epoch stops short of the window')).toEqual(Object.entries(SHED_SHORT_REASONS));
  });
});

describe('docs/reasons.md, holds', () => {
  const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
  const section = doc.split('## Why no epoch latched')[1]!.split('\n## ')[0]!;
  const listed = [...section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);

  it('should list every hold reason in the words of the code, the shed refusals by reference', () => {
    const own = Object.entries(HOLD_REASONS).filter(([reason]) => !Object.hasOwn(SHED_REFUSALS, reason));

    expect(listed).toEqual(own);
    expect(section).toContain('(#why-nothing-is-shed)');
  });

  it('should count every shed refusal as a hold reason', () => {
    expect(Object.keys(HOLD_REASONS)).toEqual(expect.arrayContaining(Object.keys(SHED_REFUSALS)));
  });
});

describe('docs/reasons.md, refused requests', () => {
  it('should list exactly the refusal reasons, in the words of the code', () => {
    const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
    const section = doc.split('## Refused requests')[1]!.split('\n## ')[0]!;
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);

    expect(rows).toEqual(Object.entries(REFUSAL_REASONS));
  });
});

describe('docs/reasons.md, preserved thinking', () => {
  it('should list exactly the per-thinking-block reasons, in the words of the code', () => {
    const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
    const rows = [
      ...doc
        .split('## Per-thinking-block reasons')[1]!
        .split('\n## ')[0]!
        .matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm),
    ].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(Object.entries(THINKING_SKIP_REASONS));
  });
});
