/**
 * The stub that replaces an elided block's `content` value. It is a pure function of the block
 * and the state directory, so every request of every run carries the same bytes for it.
 */
import { isPart, type FrozenBlock } from './epoch-types.js';
import { renderPartStub } from './part-stub.js';
import { parseLabelStub, renderLabelStub, type LabelledBlock, type ParsedLabelStub } from './label-stub.js';
import { DROP_STUB_PREFIX, elidedTextPath, escapeRegExp, GATEWAY_KEPT, isGatewayDir, rawSuffix, STUB_PREFIX } from './stub-paths.js';

export { DROP_STUB_PREFIX, elidedRawPath, elidedTextPath, STUB_PREFIX } from './stub-paths.js';

/**
 * The stub text for a frozen block (the text, not yet JSON-encoded). A part of the deeper cut gets
 * its own (part-stub.ts); a block that carries a label (policy version 3+) gets the stub that says
 * what it points at; any other gets the version 2 stub, whose bytes must never change (old epochs
 * keep re-writing them). For a part whose value is JSON text (an OpenAI call's arguments) this is
 * the text each of its strings becomes.
 */
export function renderStub(block: FrozenBlock, elidedDir: string): string {
  // A part of the deeper cut (a tool input's string, an assistant text) has stubs of its own.
  if (isPart(block)) return renderPartStub(block, elidedDir);
  if (isLabelled(block)) return renderLabelStub(block, elidedDir);
  const where = isGatewayDir(elidedDir) ? GATEWAY_KEPT : `the full text is in ${elidedTextPath(elidedDir, block.sha256)}, read that file to see it`;
  return `${STUB_PREFIX}${block.bytes} bytes, sha256 ${block.sha256}; ${where}${rawSuffix(elidedDir, block.rawSha256)}]`;
}

function isLabelled(block: FrozenBlock): block is LabelledBlock {
  return block.label !== undefined;
}

/**
 * What a stub says about the block it stands for: bytes and hashes from every version (what
 * inflate needs), and for version 3 stubs also the label, tool, input and route or rule.
 */
export type ParsedStub = { readonly bytes: number; readonly sha256: string; readonly rawSha256?: string; readonly label?: undefined } | ParsedLabelStub;

const STUB_PATTERN = new RegExp(
  `^${escapeRegExp(STUB_PREFIX)}(\\d+) bytes, sha256 ([0-9a-f]{64}); (?:the full text is in .*/\\2\\.txt, read that file to see it|${escapeRegExp(GATEWAY_KEPT)})` +
    `(?:; exact original JSON (?:in .*/([0-9a-f]{64})\\.json|kept as sha256 ([0-9a-f]{64})))?\\]$`,
  's',
);

/** Reads a stub's text back, of any version; `undefined` when the text is not a ctxshed stub. */
export function parseStub(text: string): ParsedStub | undefined {
  if (!text.startsWith(STUB_PREFIX)) return text.startsWith(DROP_STUB_PREFIX) ? parseLabelStub(text) : undefined;
  const m = STUB_PATTERN.exec(text);
  if (m === null) return parseLabelStub(text);
  const [, bytes, sha256, pathRaw, gatewayRaw] = m;
  const rawSha256 = pathRaw ?? gatewayRaw;
  if (bytes === undefined || sha256 === undefined) return undefined;
  return rawSha256 === undefined ? { bytes: Number(bytes), sha256 } : { bytes: Number(bytes), sha256, rawSha256 };
}

/** Whether the text starts like a stub of any version (a cheap test before decoding a whole value). */
export function looksLikeStub(token: Uint8Array): boolean {
  return STUB_PREFIXES_BYTES.some((prefix) => tokenStartsWith(token, prefix));
}

function tokenStartsWith(token: Uint8Array, prefix: Uint8Array): boolean {
  // token is a JSON string token: skip its opening quote.
  if (token.length < prefix.length + 2) return false;
  for (let i = 0; i < prefix.length; i++) if (token[i + 1] !== prefix[i]) return false;
  return true;
}

const STUB_PREFIXES_BYTES = [STUB_PREFIX, DROP_STUB_PREFIX].map((prefix) => new TextEncoder().encode(prefix));
