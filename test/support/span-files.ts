/** A shed span's two files written as a latch writes them (src/state/write-originals.ts): its exact bytes and their rendering. */
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import type { StateDir } from '../../src/state/layout.js';
import { writeOriginals } from '../../src/state/write-originals.js';

/** Makes `spans/<sha256>.json` hold `bytes` and `spans/<sha256>.md` their rendering, durably. */
export async function writeSpanFiles(state: StateDir, sha256: string, bytes: Uint8Array): Promise<void> {
  const markdown = new TextEncoder().encode(renderSpanMarkdown(bytes, sha256));
  await writeOriginals(
    state,
    [
      { folder: 'span', sha256, ext: 'json', bytes },
      { folder: 'span', sha256, ext: 'md', bytes: markdown },
    ],
    [],
  );
}
