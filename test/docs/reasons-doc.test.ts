import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASSTHROUGH_REASONS } from '../../src/core/passthrough-reasons.js';

describe('docs/reasons.md', () => {
  it('should list exactly the pass-through reasons the code has', () => {
    const doc = fs.readFileSync(new URL('../../docs/reasons.md', import.meta.url), 'utf8');
    const table = doc.split('## Per-block reasons')[0]!;
    const listed = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);

    expect(listed).toEqual(Object.keys(PASSTHROUGH_REASONS));
  });
});
