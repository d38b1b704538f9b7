/**
 * The stub that replaces an elided block's `content` value. It is a pure function of the block
 * and the state directory, so every request of every run carries the same bytes for it.
 */
import type { FrozenBlock } from './epoch-types.js';

/** How every stub's text begins. */
export const STUB_PREFIX = '[ctxshed: tool result moved out of the context to save space; ';

/** Absolute path of a block's elided text file. */
export function elidedTextPath(elidedDir: string, sha256: string): string {
  return `${elidedDir}/${sha256}.txt`;
}

/** Absolute path of the file that keeps a content value's exact original JSON bytes. */
export function elidedRawPath(elidedDir: string, rawSha256: string): string {
  return `${elidedDir}/${rawSha256}.json`;
}

/** The stub text for a frozen block (the text, not yet JSON-encoded). */
export function renderStub(block: FrozenBlock, elidedDir: string): string {
  const main = `${STUB_PREFIX}${block.bytes} bytes, sha256 ${block.sha256}; the full text is in ${elidedTextPath(elidedDir, block.sha256)}, read that file to see it`;
  if (block.rawSha256 === undefined) return `${main}]`;
  return `${main}; exact original JSON in ${elidedRawPath(elidedDir, block.rawSha256)}]`;
}

/** What a stub says about the block it stands for. */
export interface ParsedStub {
  readonly bytes: number;
  readonly sha256: string;
  readonly rawSha256?: string;
}

const STUB_PATTERN = new RegExp(
  `^${escapeRegExp(STUB_PREFIX)}(\\d+) bytes, sha256 ([0-9a-f]{64}); the full text is in .*/\\2\\.txt, read that file to see it` +
    `(?:; exact original JSON in .*/([0-9a-f]{64})\\.json)?\\]$`,
  's',
);

/** Reads a stub's text back; `undefined` when the text is not a ctxshed stub. */
export function parseStub(text: string): ParsedStub | undefined {
  if (!text.startsWith(STUB_PREFIX)) return undefined;
  const m = STUB_PATTERN.exec(text);
  if (m === null) return undefined;
  const [, bytes, sha256, rawSha256] = m;
  if (bytes === undefined || sha256 === undefined) return undefined;
  return rawSha256 === undefined ? { bytes: Number(bytes), sha256 } : { bytes: Number(bytes), sha256, rawSha256 };
}

/** Whether the text starts like a stub (a cheap test before decoding a whole value). */
export function looksLikeStub(token: Uint8Array): boolean {
  // token is a JSON string token: skip its opening quote.
  if (token.length < STUB_PREFIX_BYTES.length + 2) return false;
  for (let i = 0; i < STUB_PREFIX_BYTES.length; i++) if (token[i + 1] !== STUB_PREFIX_BYTES[i]) return false;
  return true;
}

const STUB_PREFIX_BYTES = new TextEncoder().encode(STUB_PREFIX);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
