/**
 * The scripted Messages API as the end-to-end tests start it: refusing a prompt over the window
 * the test proxy assumes (TEST_WINDOW_TOKENS, test-proxy.ts), as the real API refuses over the
 * model's, so a request ctxshed sent over the window fails the test instead of being answered.
 */
import { startMessagesApi, type MessagesApi, type MessagesApiOptions } from '../../src/scripted/messages-api.js';
import { TEST_WINDOW_TOKENS } from './test-proxy.js';

/** `startMessagesApi` with `maxPromptTokens` the test proxy's window unless `options` names one. */
export function startTestApi(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  return startMessagesApi({ maxPromptTokens: TEST_WINDOW_TOKENS, ...options });
}
