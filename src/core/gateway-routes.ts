/**
 * The proxy's restore routes (docs/team.md "Restores over the gateway"): what `ctxshed mcp
 * --gateway URL` reads through, served only to the owner that wrote the text.
 */

/** `GET ?handle=<sha256 or 12+ hex digits>`: one restorable text, as restore-wire.ts encodes it. */
export const GATEWAY_RESTORE_PATH = '/_ctxshed/v1/restore';
/** `GET`: what the owner can restore, as `spans` lists it. */
export const GATEWAY_SPANS_PATH = '/_ctxshed/v1/spans';

/**
 * The answer to a handle the asking owner has nothing under: whether it exists for no one or for
 * another owner, the same 404 and these same words, naming nothing.
 */
export const GATEWAY_UNKNOWN_HANDLE = 'nothing restorable under that handle';
