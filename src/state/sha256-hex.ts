/** The one hash of the state directory: lowercase hex sha256, what `sha256sum` prints. */
import { createHash } from 'node:crypto';

/** Lowercase hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
