/**
 * A state directory made the way a real session makes one: the proxy in-process, a scripted
 * upstream that prices its cache, a main conversation long enough to latch several epochs, a
 * subagent that stays below its threshold, a count_tokens call of the main conversation, a
 * count_tokens side call with a first message of its own (as Claude Code counts a tool list), and
 * a request that is no model call.
 */
import http from 'node:http';
import { startMessagesApi } from '../../src/scripted/messages-api.js';
import { ScriptedClient } from '../../src/scripted/client.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

export const MAIN_PROMPT = 'Read the project and find why the cache misses.';
export const AGENT_ID = 'agent-7f3a';
/** The first message of the side call: a count_tokens call no conversation of its own. */
export const SIDE_CALL_PROMPT = 'Count the tokens of these tool definitions.';

/** The directory, and how many requests of each kind went through. */
export interface SessionState {
  readonly dir: string;
  readonly requests: number;
}

/** Runs the session and resolves once every wire record is written and the proxy is closed. */
export async function makeSessionState(mainTurns = 40): Promise<SessionState> {
  const dir = await tempStateDir('ctxshed-session-');
  const upstream = await startMessagesApi({
    conversationOf: (req) => String(req.headers['x-claude-code-agent-id'] ?? 'main'),
  });
  const proxy = await startTestProxy(dir, testConfig(upstream.url));
  try {
    const main = new ScriptedClient(proxy.url, { prompt: MAIN_PROMPT });
    const agent = new ScriptedClient(proxy.url, { prompt: 'Find every caller of readCache.', headers: { 'x-claude-code-agent-id': AGENT_ID } });
    for (let i = 0; i < mainTurns; i++) {
      await main.turnOnce();
      if (i % 5 === 0) await agent.turnOnce();
    }
    await main.send('/v1/messages/count_tokens');
    const counter = new ScriptedClient(proxy.url, { prompt: SIDE_CALL_PROMPT });
    await counter.send('/v1/messages/count_tokens');
    await getStatus(`${proxy.url}/v1/models`);
    const requests = main.sent.length + agent.sent.length + counter.sent.length + 1;
    await waitForWire(dir, requests);
    return { dir, requests };
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}
