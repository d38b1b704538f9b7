/**
 * Where a test may kill this process mid-step (docs/reliability.md, "Crash points"): one port, as
 * the clock is one. A normal build installs none, so every point does nothing and no environment
 * variable is read. The crash-point test starts the CLI through its own entry
 * (test/support/crash-cli.ts), which installs a port that names one point before the CLI runs.
 */

/** Which named point, if any, should kill the process. */
export interface CrashPort {
  armed(name: string): boolean;
}

let port: CrashPort | undefined;

/** Installs the port; only a test's entry calls it, before anything else runs. */
export function installCrashPort(crashes: CrashPort): void {
  port = crashes;
}

/** Kills this process with SIGKILL when the installed port arms `name`; nothing otherwise. */
export function crashPoint(name: string): void {
  if (crashArmed(name)) process.kill(process.pid, 'SIGKILL');
}

/** Whether the installed port arms `name`: for a point that must do something before it dies. */
export function crashArmed(name: string): boolean {
  return port?.armed(name) === true;
}
