/**
 * Test-only crash injection. `crashPoint(name)` kills this process with SIGKILL when the
 * environment variable CTXSHED_TEST_CRASH_AT equals `name`, and does nothing otherwise. Only the
 * reliability tests (test/reliability/crash-points.test.ts) set that variable; see
 * docs/reliability.md for the named points.
 */
export function crashPoint(name: string): void {
  if (process.env['CTXSHED_TEST_CRASH_AT'] === name) process.kill(process.pid, 'SIGKILL');
}

/** Whether CTXSHED_TEST_CRASH_AT names `name`: for a point that must do something before it dies. */
export function crashArmed(name: string): boolean {
  return process.env['CTXSHED_TEST_CRASH_AT'] === name;
}
