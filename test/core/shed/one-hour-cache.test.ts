import { describe, expect, it } from 'vitest';
import { asksOneHourCache } from '../../../src/core/shed/one-hour-cache.js';
import { utf8 } from './shed-bodies.js';

const hour = { type: 'ephemeral', ttl: '1h' };
const ask = (value: unknown) => asksOneHourCache(utf8(JSON.stringify(value)));

describe('asksOneHourCache', () => {
  it('should find a one-hour breakpoint wherever the API takes one', () => {
    expect(ask({ system: [{ type: 'text', text: 's', cache_control: hour }], messages: [] })).toBe(true);
    expect(ask({ tools: [{ name: 'a', cache_control: hour }], messages: [] })).toBe(true);
    expect(ask({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: hour }] }] })).toBe(true);
    expect(
      ask({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'x', cache_control: hour }] }] }] }),
    ).toBe(true);
    expect(ask({ messages: [{ role: 'user', content: 'x', cache_control: hour }] })).toBe(true);
  });

  it('should not see five-minute breakpoints, ttl keys elsewhere, or bad bytes', () => {
    expect(ask({ system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }], messages: [] })).toBe(false);
    expect(ask({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'n', input: { cache_control: hour } }] }] })).toBe(false);
    expect(ask({ metadata: { cache_control: hour }, messages: [] })).toBe(false);
    expect(asksOneHourCache(utf8('{"system":[{"cache_control":{"ttl":"1h"'))).toBe(false);
    expect(asksOneHourCache(utf8('[1]'))).toBe(false);
  });
});
