/** Which directory holds the state: the flag, then the environment, then the XDG default. */
import path from 'node:path';

/**
 * `--state`, else `$CTXSHED_STATE`, else `$XDG_STATE_HOME/ctxshed`, else
 * `<homedir>/.local/state/ctxshed`; always an absolute path.
 */
export function resolveStateDir(env: NodeJS.ProcessEnv, homedir: string, flag?: string): string {
  // An empty value means "unset" here, as shells make `VAR=` easy to type by accident.
  if (flag !== undefined && flag !== '') return path.resolve(flag);
  const explicit = env['CTXSHED_STATE'];
  if (explicit !== undefined && explicit !== '') return path.resolve(explicit);
  // The XDG Base Directory spec says a relative XDG_* path is invalid and must be ignored.
  const xdg = env['XDG_STATE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'ctxshed');
  return path.resolve(homedir, '.local', 'state', 'ctxshed');
}
