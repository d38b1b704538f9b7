/**
 * How many times a request carried a header, from its raw lines. Node folds a repeated header
 * into one value (joined with ", ", or the first kept for `host` and `authorization`), so a header
 * sent twice reads as one from `req.headers`; where twice must mean "refused" (a second Host, a
 * second owner header), the count comes from here.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The lines named `name` (any case) in `rawHeaders`; without raw lines, 1 when `headers` has it, else 0. */
export function headerLines(name: string, headers: IncomingHttpHeaders, rawHeaders: readonly string[] | undefined): number {
  const lower = name.toLowerCase();
  if (rawHeaders === undefined) {
    const value = headers[lower];
    return value === undefined ? 0 : Array.isArray(value) ? value.length : 1;
  }
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] ?? '').toLowerCase() === lower) count += 1;
  return count;
}
