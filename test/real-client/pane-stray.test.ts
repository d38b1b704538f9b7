import { describe, expect, it } from 'vitest';
import { strayLines } from './pane-stray.js';

describe('strayLines', () => {
  it("should pass the banner's lines and take any other line of ctxshed's, inside a box too", () => {
    const screen = [
      'ctxshed: rescue on at http://127.0.0.1:1 -> https://api.anthropic.com; epochs latch at 70%',
      'ctxshed: Prometheus metrics at http://127.0.0.1:1/_ctxshed/metrics',
      'ctxshed: Claude Code (claude) may read /s/elided/ and spans/ without asking',
      'ctxshed: codex gets the proxy as -c openai_base_url; no read grant needed',
      'ctxshed: no read grant: sh is not Claude Code',
      '│ > ctxshed: upstream request failed: POST /v1/messages -> 502 after 3 ms │',
      '  USER-LINE  ctxshed on · 12.0% of 200k · no epoch yet',
      // Claude Code showing ctxshed's 502 answer, as it shows any API error: not a line ctxshed wrote.
      '✻ 502 ctxshed: could not connect to upstream http://127.0.0.1:9: connect ECONNREFUSED · retrying in 2s · attempt 3/10',
      '  ⎿  API Error: 502 {"type":"error","error":{"type":"api_error","message":"ctxshed: could not connect to upstream"}}',
      '❯ Say hello.ctxshed: the state directory cannot be written (ENOSPC)',
    ].join('\n');

    expect(strayLines(screen)).toEqual([
      '│ > ctxshed: upstream request failed: POST /v1/messages -> 502 after 3 ms │',
      '❯ Say hello.ctxshed: the state directory cannot be written (ENOSPC)',
    ]);
  });
});
