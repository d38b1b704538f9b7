import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLookup } from '../../src/wrapper/command-lookup.js';

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-lookup-'));
  await fs.writeFile(path.join(tmp, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.writeFile(path.join(tmp, 'plain'), 'x', { mode: 0o644 });
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('systemLookup', () => {
  it('should find an executable on PATH, skip one that is not executable, and resolve a path as given', async () => {
    const lookup = systemLookup(`/nonexistent${path.delimiter}${tmp}`);
    expect(await lookup.which('tool')).toBe(path.join(tmp, 'tool'));
    expect(await lookup.which('plain')).toBeUndefined();
    expect(await lookup.which('./x/y')).toBe(path.resolve('x/y'));
  });

  it('should read the head of a file and answer undefined for what is not there', async () => {
    const lookup = systemLookup(undefined);
    expect(await lookup.readHead(path.join(tmp, 'tool'))).toBe('#!/bin/sh\n');
    expect(await lookup.readHead(path.join(tmp, 'none'))).toBeUndefined();
    expect(await lookup.realpath(path.join(tmp, 'none'))).toBeUndefined();
  });
});
