import { describe, expect, it } from 'vitest';
import { selfCommand } from '../../src/cli/self-command.js';

describe('selfCommand', () => {
  it('should say ctxshed when the ctxshed on the PATH is what ran (npm install -g . or npm link)', () => {
    expect(selfCommand({ script: '/usr/local/bin/ctxshed', cwd: '/home/me', pathEnv: '/usr/bin:/usr/local/bin' })).toBe('ctxshed');
  });

  it('should say npx ctxshed when npx ran it, its link on a PATH the person does not have', () => {
    const viaNpx = { script: '/root/.npm/_npx/617e47395410eac2/node_modules/.bin/ctxshed', cwd: '/src/ctxshed' };

    expect(selfCommand({ ...viaNpx, pathEnv: '/root/.npm/_npx/617e47395410eac2/node_modules/.bin:/usr/bin', npmEvent: 'npx' })).toBe('npx ctxshed');
    expect(selfCommand({ ...viaNpx, pathEnv: '/root/.npm/_npx/617e47395410eac2/node_modules/.bin:/usr/bin', npmEvent: 'test' })).toBe('ctxshed');
    expect(selfCommand({ script: '/src/ctxshed/dist/src/cli/main.js', cwd: '/src/ctxshed', pathEnv: '/usr/bin', npmEvent: 'npx' })).toBe(
      'node dist/src/cli/main.js',
    );
  });

  it('should give the path of a ctxshed link that is not on the PATH (node_modules/.bin)', () => {
    expect(selfCommand({ script: '/home/me/p/node_modules/.bin/ctxshed', cwd: '/home/me/p', pathEnv: '/usr/bin' })).toBe('node_modules/.bin/ctxshed');
    expect(selfCommand({ script: '/opt/x y/ctxshed', cwd: '/home/me', pathEnv: '/usr/bin' })).toBe(`'/opt/x y/ctxshed'`);
  });

  it('should give node and the script from a checkout, relative to the cwd when it is below it', () => {
    expect(selfCommand({ script: '/src/ctxshed/dist/src/cli/main.js', cwd: '/src/ctxshed', pathEnv: '/usr/bin' })).toBe('node dist/src/cli/main.js');
    expect(selfCommand({ script: '/src/ctxshed/dist/src/cli/main.js', cwd: '/tmp', pathEnv: '/usr/bin' })).toBe('node /src/ctxshed/dist/src/cli/main.js');
  });

  it('should fall back to ctxshed when the script is unknown', () => {
    expect(selfCommand({ script: undefined, cwd: '/', pathEnv: undefined })).toBe('ctxshed');
  });
});
