import { describe, expect, it } from 'vitest';
import { isClientNotice } from '../../../src/core/shed/client-notice.js';

describe('isClientNotice', () => {
  it.each([
    [
      'deferred tools announced',
      '<system-reminder>\nThe following deferred tools are now available via ToolSearch. Their schemas are NOT loaded.\nmcp__x__y\n</system-reminder>',
    ],
    [
      'deferred tools withdrawn',
      '<system-reminder>\nThe following deferred tools are no longer available (MCP server disconnected): mcp__x__y\n</system-reminder>',
    ],
    ['MCP instructions', '\n<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions\n</system-reminder>'],
  ])('should see a reminder that opens with a notice: %s', (_name, text) => {
    expect(isClientNotice(text)).toBe(true);
  });

  it.each([
    ['another reminder', "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n</system-reminder>"],
    ['a quote of a notice', 'Claude Code wrote: <system-reminder> The following deferred tools are now available via ToolSearch'],
    ['a notice phrase deep in a reminder', `<system-reminder>\n${'x'.repeat(300)} # MCP Server Instructions\n</system-reminder>`],
    ['plain text', 'The following deferred tools are now available via ToolSearch'],
  ])('should not see %s as one', (_name, text) => {
    expect(isClientNotice(text)).toBe(false);
  });
});
