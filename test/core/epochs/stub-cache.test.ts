import { describe, expect, it } from 'vitest';
import { cachedStubs } from '../../../src/core/epochs/stub-cache.js';

describe('cachedStubs', () => {
  it('should render an item once per directory and give back the same bytes after', () => {
    // Arrange
    const rendered: string[] = [];
    const stubOf = cachedStubs((item: { readonly name: string }, dir: string) => (rendered.push(`${item.name}@${dir}`), new TextEncoder().encode(dir)));
    const item = { name: 'a' };

    // Act
    const first = stubOf(item, '/one');
    const again = stubOf(item, '/one');
    const elsewhere = stubOf(item, '/two');

    // Assert
    expect(again).toBe(first);
    expect(elsewhere).not.toBe(first);
    expect(rendered).toEqual(['a@/one', 'a@/two']);
  });
});
