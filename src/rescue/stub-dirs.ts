/**
 * What the stubs name as the way back: the state directory's folders, or, behind a gateway
 * (`gatewayStubs`, docs/team.md), the restore tool and the handle, since the person's agent
 * cannot read the gateway's disk. Only the stubs change; the files go where they always go.
 */
import { GATEWAY_STUB_DIR } from '../core/stub-paths.js';
import type { StateDir } from '../state/layout.js';
import type { EngineSettings } from './engine-settings.js';

/** The folders the stubs name. */
export interface StubDirs {
  readonly elidedDir: string;
  readonly spansDir: string;
}

/** The folders the stubs of an engine with `settings` over `state` name. */
export function stubDirsOf(state: StateDir, settings: EngineSettings): StubDirs {
  if (settings.gatewayStubs === true) return { elidedDir: GATEWAY_STUB_DIR, spansDir: GATEWAY_STUB_DIR };
  return { elidedDir: state.elidedDir, spansDir: state.spansDir };
}
