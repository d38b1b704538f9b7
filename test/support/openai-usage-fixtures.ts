/** The usage blocks the OpenAI APIs send (Responses, Chat Completions), and what ctxshed reads from the Responses one. */
export const RESPONSES_USAGE = {
  input_tokens: 12033,
  input_tokens_details: { cached_tokens: 11904 },
  output_tokens: 44,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 12077,
};
export const CHAT_USAGE = { prompt_tokens: 125, completion_tokens: 48, total_tokens: 173, prompt_tokens_details: { cached_tokens: 98 } };
/** RESPONSES_USAGE in the Messages shape: input less the cached tokens, which count as cache reads. */
export const READ_RESPONSES = { inputTokens: 129, cacheCreationInputTokens: 0, cacheReadInputTokens: 11904, outputTokens: 44, model: 'gpt-x' };
