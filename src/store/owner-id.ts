/** Owner ids: `''` is the single-user default; any other is a safe folder name and key part. */
import { StateError } from '../state/state-error.js';

const OWNER_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Throws STATE_BAD_NAME unless `owner` is `''` or 1-128 of `[A-Za-z0-9._-]`, not starting with a dot. */
export function checkOwnerId(owner: string): string {
  if (owner === '' || OWNER_ID.test(owner)) return owner;
  const shown = JSON.stringify(owner.slice(0, 80));
  throw new StateError('STATE_BAD_NAME', `an owner id must be 1-128 of [A-Za-z0-9._-], not starting with a dot; got ${shown}`);
}
