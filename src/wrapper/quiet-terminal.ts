/**
 * After its banner, `rescue` writes nothing to the agent's terminal (docs/rescue.md): the terminal
 * is the child's screen, and a line ctxshed writes lands inside it (issue 41: each retry against an
 * unreachable upstream printed `ctxshed: upstream request failed ...` into Claude Code's input
 * box). What the proxy would tell a person is in the state directory already (each request's wire
 * record, the state's notes), and `ctxshed status` and the status line show it.
 */

/** Where a running proxy's lines for a person go under `rescue`: nowhere on the terminal. */
export function quietLog(_line: string): void {
  // The wire record of the request, or the state's note, says it (proxy/handle-request.ts, proxy/state-health.ts).
}

/**
 * Stops Node printing its own process warnings (a deprecation, a listener count) on stderr, which
 * is the child's terminal from now on. Warnings are still emitted to any listener.
 */
export function silenceProcessWarnings(): void {
  // Node's printer is the 'warning' listener it installs at start; without it nothing is printed.
  process.removeAllListeners('warning');
  process.on('warning', () => undefined);
}
