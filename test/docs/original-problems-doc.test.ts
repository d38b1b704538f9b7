import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORIGINAL_PROBLEMS } from '../../src/core/original-problems.js';

const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');

describe('docs/reasons.md, originals that are not what their name says', () => {
  it('should list every problem of the closed list, in order, with its meaning in the code own words', () => {
    const section = doc.split('\n## Originals that are not what their name says\n')[1]!.split('\n## ')[0]!;
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);

    expect(rows).toEqual(Object.entries(ORIGINAL_PROBLEMS));
  });
});
