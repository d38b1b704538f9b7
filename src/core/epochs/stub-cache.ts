/**
 * A stub is a pure function of its frozen item and the directory it names, and the proxy hands in
 * the same frozen item objects on every request of a conversation: each kind remembers each
 * item's stub bytes, keyed weakly by the item, so a dropped epoch lets them go.
 */

/** `render` with its result remembered per item (and redone when the directory differs). */
export function cachedStubs<F extends object>(render: (item: F, dir: string) => Uint8Array): (item: F, dir: string) => Uint8Array {
  const cache = new WeakMap<F, { readonly dir: string; readonly bytes: Uint8Array }>();
  return (item, dir) => {
    const known = cache.get(item);
    if (known !== undefined && known.dir === dir) return known.bytes;
    const bytes = render(item, dir);
    cache.set(item, { dir, bytes });
    return bytes;
  };
}
