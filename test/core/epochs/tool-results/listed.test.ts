import { describe, expect, it } from 'vitest';
import { blockOrigin } from '../../../../src/core/epochs/tool-results/listed.js';

describe('blockOrigin', () => {
  it('should read tool and input strings when a record has them, and nothing else', () => {
    expect(blockOrigin({ tool: 'Read', input: '/src/a.ts' })).toEqual({ tool: 'Read', input: '/src/a.ts' });
    expect(blockOrigin({ tool: 'Bash' })).toEqual({ tool: 'Bash' });
    expect(blockOrigin({ toolUseId: 'toolu_1', tool: 3 })).toEqual({});
  });
});
