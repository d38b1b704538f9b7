/**
 * The few error helpers every layer shares. Pure (no `node:` import), so the core may use them.
 *
 * The `ctxshed:` prefix rule: a message names ctxshed only where it leaves the program, so a
 * reader sees it once: the CLI's one-line errors (cli/run-cli.ts), the proxy's API-shaped errors
 * (proxy/api-error.ts) and the wire log's notes (proxy/state-health.ts). Everywhere else a message
 * says what failed, and `outwardMessage` adds the prefix at the exit.
 */

/** The prefix a message carries once it leaves the program. */
export const CTXSHED_PREFIX = 'ctxshed: ';

/** An error's message, or the thrown value as text (a `throw 'x'` is still a reason). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether `value` is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` as it leaves the program: with the `ctxshed:` prefix exactly once. */
export function outwardMessage(text: string): string {
  return text.startsWith(CTXSHED_PREFIX) ? text : `${CTXSHED_PREFIX}${text}`;
}
