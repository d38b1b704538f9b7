/**
 * What the stubs name as the way back: the state directory's folders, or, behind a gateway
 * (`stubs.gateway`, docs/team.md), the restore tool and the handle, since the person's agent
 * cannot read the gateway's disk. Only the stubs change; the files go where they always go.
 */
import { GATEWAY_STUB_DIR } from '../core/stub-paths.js';
import type { StubDirs } from '../store/index.js';
import type { EngineSettings } from './engine-settings.js';

export type { StubDirs } from '../store/index.js';

/** The folders the stubs of an engine with `settings` name, given where its store keeps the originals. */
export function stubDirsOf(stored: StubDirs, settings: EngineSettings): StubDirs {
  if (settings.stubs.gateway) return { elidedDir: GATEWAY_STUB_DIR, spansDir: GATEWAY_STUB_DIR };
  return stored;
}
