/** `restore`: the verified text behind a handle, or a clean refusal saying why not. */
import type { StateDir } from '../state/layout.js';
import type { SealRecord } from '../state/seal-record.js';
import { readSeal } from '../state/seal-block.js';
import { restorableKinds, type RestorableKind } from './restorable-kinds.js';
import { parseHandle } from './restore-handle.js';
import { resolveHandle } from './resolve-handle.js';

/** Every answer `restoreText` can give. Only `restored` carries text, and only text that re-hashed. */
export type RestoreOutcome =
  /** `bytes` re-hashed to `handle`; `rendering`, for a kind that has one, is what is shown instead (made from them). */
  | { readonly kind: 'restored'; readonly handle: string; readonly source: string; readonly bytes: Uint8Array; readonly rendering?: string }
  | { readonly kind: 'invalid'; readonly why: string }
  | { readonly kind: 'unknown'; readonly prefix: string }
  | { readonly kind: 'ambiguous'; readonly prefix: string; readonly handles: readonly string[] }
  /** `seal` is undefined when the record is there but does not read: still sealed. */
  | { readonly kind: 'sealed'; readonly handle: string; readonly seal: SealRecord | undefined }
  | { readonly kind: 'corrupt'; readonly handle: string; readonly actual: string }
  | { readonly kind: 'missing'; readonly handle: string }
  /** Its file is no regular file inside the state directory (a FIFO, a symlinked folder): never read. */
  | { readonly kind: 'refused'; readonly handle: string; readonly why: string };

/** Restores the text `input` names (a sha256 or its first 12+ hex digits). */
export async function restoreText(state: StateDir, input: string, kinds: readonly RestorableKind[] = restorableKinds()): Promise<RestoreOutcome> {
  const parsed = parseHandle(input);
  if (parsed.kind === 'invalid') return parsed;
  const resolved = await resolveHandle(state, parsed.prefix, kinds);
  if (resolved.kind === 'none') return { kind: 'unknown', prefix: parsed.prefix };
  if (resolved.kind === 'ambiguous') return { kind: 'ambiguous', prefix: parsed.prefix, handles: resolved.handles };
  const { handle, source } = resolved;
  // The seal is checked first and on its own: a seal interrupted before its text moved still refuses.
  if (resolved.sealed) return { kind: 'sealed', handle, seal: await readSeal(state, handle).catch(() => undefined) };
  if (source === undefined) return { kind: 'missing', handle };
  const read = await source.read(state, handle);
  switch (read.kind) {
    case 'ok':
      return { kind: 'restored', handle, source: source.name, bytes: read.bytes, ...(read.rendering === undefined ? {} : { rendering: read.rendering }) };
    case 'missing':
      return { kind: 'missing', handle };
    case 'refused':
      return { kind: 'refused', handle, why: read.why };
    case 'corrupt':
      return { kind: 'corrupt', handle, actual: read.actual };
  }
}
