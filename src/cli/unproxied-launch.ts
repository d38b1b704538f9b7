/**
 * When `rescue` cannot start its proxy: the exit code that says so, the line that says why, and,
 * with `--allow-unproxied`, the child as it runs without the proxy. Pure.
 *
 * Without the proxy the child is pointed only where the user asked: the `--upstream` they named
 * becomes its base URL (ANTHROPIC_BASE_URL, or Codex's `-c openai_base_url`), never the
 * provider's default; with no `--upstream` its environment and arguments are left as they were.
 */
import type { CodexLaunch } from './codex-launch.js';

/**
 * The exit code of a `rescue` that did not start the command because the proxy could not start:
 * sysexits.h's EX_UNAVAILABLE. The child never ran, so no code of its own is at stake; 69 is kept
 * apart from the codes ctxshed uses elsewhere (1 failure, 2 usage, 70 internal, 126/127 spawn).
 */
export const PROXY_UNAVAILABLE_EXIT = 69;

/** The child as `rescue` runs it. */
export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** Why the proxy did not start, as the one line `rescue` prints (without the `ctxshed:` prefix). */
export function proxyFailureLine(why: string, where: { readonly port: number; readonly upstream: string; readonly command: string }, allowed: boolean): string {
  const port = where.port === 0 ? 'a free port on 127.0.0.1' : `127.0.0.1:${where.port}`;
  const head = `cannot start the proxy on ${port} for ${where.upstream}: ${why}`;
  if (allowed) return `${head}; --allow-unproxied: running ${where.command} without ctxshed`;
  return `${head}; not running ${where.command} (exit ${PROXY_UNAVAILABLE_EXIT}); --allow-unproxied runs it without ctxshed`;
}

/** The child without the proxy: the user's `--upstream` as its base URL when they named one. */
export function unproxiedChild(child: ChildCommand, upstreamFlag: string | undefined, codex: CodexLaunch | undefined): ChildCommand {
  if (upstreamFlag === undefined) return child;
  if (codex !== undefined) return { ...child, args: codex.argsFor(upstreamFlag) };
  return { ...child, env: { ...child.env, ANTHROPIC_BASE_URL: upstreamFlag } };
}
