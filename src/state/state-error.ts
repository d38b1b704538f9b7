/** The one error type of src/state: callers match on `code`, never on the message. */

/** Every failure src/state reports, as a closed list so callers can switch on it. */
export type StateErrorCode =
  | 'STATE_NOT_DIR'
  | 'STATE_UNWRITABLE'
  | 'STATE_NOT_PRIVATE'
  | 'STATE_SYMLINK'
  | 'STATE_BAD_NAME'
  | 'STATE_HASH_MISMATCH'
  | 'STATE_BAD_RECORD'
  | 'STATE_BAD_PLAN'
  | 'STATE_WRITE_FAILED'
  | 'STATE_LOCK_FAILED'
  | 'STATE_LOCK_COMPROMISED'
  | 'STATE_WIRE_FAILED';

/** A state-directory failure with a stable `code` and, when there was one, the error behind it. */
export class StateError extends Error {
  override readonly name = 'StateError';

  constructor(
    readonly code: StateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    // ErrorOptions keeps the original error (with its errno code) as `cause`, like execa does.
    super(message, options);
  }
}

/** Whether `error` is a Node system error carrying `code` (ENOENT, EEXIST ...). */
export function hasErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
