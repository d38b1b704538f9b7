/** The one shape both tools answer in: MCP's CallToolResult with one text block. */

/** A tool's answer: text for the model; `isError` for a refusal or a miss (the MCP spec's tool-level error). */
export interface ToolText {
  readonly [key: string]: unknown;
  readonly content: Array<{ type: 'text'; text: string }>;
  readonly isError?: boolean;
}

/** A successful answer. */
export function textResult(text: string): ToolText {
  return { content: [{ type: 'text', text }] };
}

/** A clean miss or refusal: said in one line, flagged so the client shows it as a failed call. */
export function errorResult(text: string): ToolText {
  return { content: [{ type: 'text', text }], isError: true };
}
