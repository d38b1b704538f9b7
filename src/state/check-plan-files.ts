/** Before a record is written: every file its new epochs name is already on disk. */
import { itemsOfEpoch, epochKindInfos, type Epoch } from '../core/index.js';
import { originalsFolderOf, sizeOfOriginal } from './originals-folder.js';
import type { StateDir } from './layout.js';
import { StateError } from './state-error.js';

/**
 * Throws STATE_BAD_PLAN unless every file the items of `epochs` name, of every kind (the kind's
 * `filesOf`: a tool result's `.txt` and raw `.json`, a span's `.json` and `.md`, a removed
 * thinking block's `.json`, a registered kind's own), is a regular file in its kind's folder, of
 * the size the item says when it says one; a sealed block's in sealed/. Files found here were put
 * by this latch or an earlier one, and so are durable; re-hashing them all would cost a read of each.
 */
export async function checkPlanFiles(state: StateDir, epochs: readonly Epoch[]): Promise<void> {
  const missing: string[] = [];
  for (const kind of epochKindInfos()) {
    const { label } = originalsFolderOf(state, kind.originals);
    for (const file of epochs.flatMap((epoch) => itemsOfEpoch(epoch, kind)).flatMap((item) => kind.filesOf(item))) {
      const size = await sizeOfOriginal(state, kind.originals, file.sha256, file.ext);
      const name = `${label}/${file.sha256}.${file.ext}`;
      if (size === undefined) missing.push(`${name} (missing)`);
      else if (file.bytes !== undefined && size !== file.bytes) missing.push(`${name} (${size} bytes, the ${kind.says ?? 'item'} says ${file.bytes})`);
    }
  }
  if (missing.length > 0) {
    throw new StateError('STATE_BAD_PLAN', `refusing to write a record that names files not on disk: ${missing.join(', ')}`);
  }
}
