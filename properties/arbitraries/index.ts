/** The generators of realistic, non-canonical Messages API bodies. */
import type fc from 'fast-check';
import { growConversation, lastRequest, type ClientRequest } from './client-growth.js';
import { conversationSpecArb } from './transcript.js';

export * from './client-growth.js';
export * from './styled-json.js';
export * from './text.js';
export * from './transcript.js';

/** One request body: the last request of a generated conversation. */
export function requestBodyArb(maxTurns = 8, minTurns = 0): fc.Arbitrary<ClientRequest> {
  return conversationSpecArb(maxTurns, minTurns).map(lastRequest);
}

/** Every request of a generated conversation, in order. */
export function conversationArb(maxTurns = 8, minTurns = 0): fc.Arbitrary<ClientRequest[]> {
  return conversationSpecArb(maxTurns, minTurns).map(growConversation);
}
export * from './thinking-conversation.js';
export * from './thinking-ideal.js';
