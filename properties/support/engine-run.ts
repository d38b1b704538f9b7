/** A generated conversation sent through one engine over a fresh state directory, request by request. */
import { EpochEngine, type EngineRequest, type EngineSettings, type Prepared } from '../../src/rescue/index.js';
import { openStateDir } from '../../src/state/open-state-dir.js';
import { tempStateDir } from '../../test/support/test-proxy.js';

/** A reading at 90% of a 1,000-token window: every request's response pushes the next over the threshold. */
export const FULL_READING = { inputTokens: 900, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 1 };

/** A Messages request with this body. */
export const messagesRequest = (body: Uint8Array): EngineRequest => ({ method: 'POST', target: '/v1/messages', headers: {}, body });

/** Every request of the conversation through one engine, each answered with `FULL_READING`; the state directory and what was sent. */
export async function runThroughEngine(
  requests: readonly { readonly bytes: Uint8Array }[],
  settings: EngineSettings,
  dirPrefix: string,
): Promise<{ dir: string; sent: Prepared[] }> {
  const dir = await tempStateDir(dirPrefix);
  const engine = new EpochEngine(await openStateDir(dir), settings);
  const sent: Prepared[] = [];
  for (const r of requests) {
    const prepared = await engine.prepare(messagesRequest(r.bytes));
    engine.observe(prepared, { status: 200, usage: FULL_READING });
    sent.push(prepared);
  }
  await engine.settle();
  return { dir, sent };
}
