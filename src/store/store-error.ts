/** Errors of the Postgres store that a state directory never has; their messages never hold a password. */

export type StoreErrorCode = 'STORE_SCHEMA' | 'STORE_UNAVAILABLE' | 'STORE_BAD_URL';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}
