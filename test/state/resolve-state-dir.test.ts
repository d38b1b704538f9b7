import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStateDir } from '../../src/state/resolve-state-dir.js';

const HOME = '/home/ada';

describe('resolveStateDir', () => {
  it('should prefer the --state flag over everything', () => {
    const env = { CTXSHED_STATE: '/env/state', XDG_STATE_HOME: '/xdg' };
    expect(resolveStateDir(env, HOME, '/flag/state')).toBe('/flag/state');
  });

  it('should use $CTXSHED_STATE when there is no flag', () => {
    expect(resolveStateDir({ CTXSHED_STATE: '/env/state', XDG_STATE_HOME: '/xdg' }, HOME)).toBe('/env/state');
  });

  it('should use $XDG_STATE_HOME/ctxshed next', () => {
    expect(resolveStateDir({ XDG_STATE_HOME: '/xdg' }, HOME)).toBe('/xdg/ctxshed');
  });

  it('should fall back to ~/.local/state/ctxshed', () => {
    expect(resolveStateDir({}, HOME)).toBe('/home/ada/.local/state/ctxshed');
  });

  it('should treat empty values as unset', () => {
    expect(resolveStateDir({ CTXSHED_STATE: '', XDG_STATE_HOME: '' }, HOME, '')).toBe('/home/ada/.local/state/ctxshed');
  });

  it('should ignore a relative $XDG_STATE_HOME, as the XDG spec says', () => {
    expect(resolveStateDir({ XDG_STATE_HOME: 'relative/xdg' }, HOME)).toBe('/home/ada/.local/state/ctxshed');
  });

  it('should make a relative flag or $CTXSHED_STATE absolute', () => {
    expect(resolveStateDir({}, HOME, 'my-state')).toBe(path.resolve('my-state'));
    expect(resolveStateDir({ CTXSHED_STATE: './s' }, HOME)).toBe(path.resolve('s'));
  });
});
