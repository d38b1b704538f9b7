/** Inflate at the edge: read each stub's elided file(s), check their hashes, splice the originals back. */
import fs from 'node:fs/promises';
import { applyInflate, findStubs, indexTranscript, restoredContent, type FoundStub } from '../core/index.js';
import { elidedPath, type StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';

/** Why a body could not be inflated. */
export class InflateError extends Error {
  override readonly name = 'InflateError';
}

/** The original request bytes of a rewritten body; a body without stubs comes back unchanged. */
export async function inflateFromState(state: StateDir, body: Uint8Array): Promise<{ body: Uint8Array; stubs: number }> {
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') throw new InflateError(`not a Messages API body (${indexed.reason}: ${indexed.detail})`);
  const found = findStubs(body, indexed.index);
  const restored = await Promise.all(found.map(async (f) => ({ found: f, content: await readOriginal(state, f) })));
  return { body: applyInflate(body, restored), stubs: found.length };
}

async function readOriginal(state: StateDir, found: FoundStub): Promise<Uint8Array> {
  const { stub } = found;
  const text = await readVerified(state, stub.sha256, 'txt');
  if (text.length !== stub.bytes) {
    throw new InflateError(`elided file ${stub.sha256}.txt holds ${text.length} bytes, the stub says ${stub.bytes}`);
  }
  const raw = stub.rawSha256 === undefined ? undefined : await readVerified(state, stub.rawSha256, 'json');
  return restoredContent(stub, text, raw);
}

async function readVerified(state: StateDir, sha256: string, ext: 'txt' | 'json'): Promise<Uint8Array> {
  const file = elidedPath(state, sha256, ext);
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    throw new InflateError(`cannot read elided file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (sha256Hex(bytes) !== sha256) throw new InflateError(`elided file ${file} does not match its sha256 name`);
  return bytes;
}
