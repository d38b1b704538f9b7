/** Why a command could not be started, as a shell would report it. */
export type SpawnFailure = { code: 126 | 127; message: string };

/**
 * Turns a spawn error into a shell's exit status and one line for stderr: 127 when the command
 * is not found (ENOENT), 126 when it was found but cannot be run (EACCES, ENOTDIR, ...), as bash
 * does.
 */
export function describeSpawnFailure(command: string, error: unknown): SpawnFailure {
  const errno = readErrorCode(error);
  if (errno === 'ENOENT') return failure(127, `command not found: ${command}`);
  if (errno === 'EACCES') return failure(126, `permission denied: ${command}`);
  const reason = errno ?? (error instanceof Error ? error.message : safeString(error));
  return failure(126, `cannot run ${command}: ${reason}`);
}

function failure(code: 126 | 127, text: string): SpawnFailure {
  // The promise is one line on stderr, whatever the command name or the error text hold.
  return { code, message: `ctxshed: ${text.replace(/[\r\n]+/g, ' ')}` };
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'unknown error'; // An object whose toString is not a function: still say something.
  }
}

function readErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
