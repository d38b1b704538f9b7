/**
 * The one stderr line of a request the upstream failed: no answer (a connect error, a timeout, a
 * reset), an error status, or a stream cut or ended by an error event. It names the method, the
 * path without its query, what failed and how long the request took; never a header, a body or a
 * query string, which may carry keys. A request the client itself gave up on is not the upstream's
 * failure and gets no line. Pure.
 */
import type { ForwardResult } from './forward-types.js';

/** What the line is made of: the request as the client sent it, and how it ended. */
export interface UpstreamOutcome {
  readonly method: string;
  /** The request-target: path and query, or the absolute form. */
  readonly target: string;
  /** The status the client got (0: none). */
  readonly status: number;
  readonly result: Pick<ForwardResult, 'error' | 'streamError'>;
  readonly ms: number;
}

/** The client's own going away, not the upstream's failure. */
const CLIENT_SIDE = new Set(['CLIENT_CLOSED', 'ABORTED']);

/** The line for `outcome`, without a newline, or undefined when the upstream did not fail. */
export function upstreamFailureLine(outcome: UpstreamOutcome): string | undefined {
  const { status, result } = outcome;
  const error = result.error !== undefined && !CLIENT_SIDE.has(result.error.code) ? result.error.code : undefined;
  const stream = result.streamError?.type;
  if (error === undefined && stream === undefined && status < 400) return undefined;
  const what = [status === 0 ? 'no status' : String(status), error, stream === undefined ? undefined : `stream error ${stream}`]
    .filter((part) => part !== undefined)
    .join(', ');
  return `ctxshed: upstream request failed: ${outcome.method} ${pathOf(outcome.target)} -> ${what} after ${Math.round(outcome.ms)} ms`;
}

/** The path of a request-target, without query or fragment; an absolute form by its path. */
function pathOf(target: string): string {
  let path = target;
  if (!target.startsWith('/')) {
    try {
      path = new URL(target).pathname;
    } catch {
      return '(unparsable target)';
    }
  }
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}
