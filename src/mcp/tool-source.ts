/**
 * Where the MCP tools read: a state directory on this machine (`ctxshed mcp --state`), or a
 * gateway's restore routes (`ctxshed mcp --gateway URL`, gateway-client.ts). The tools render
 * both alike.
 */
import { listRestorable, type RestorableList } from '../restore/list-restorable.js';
import { restoreText, type RestoreOutcome } from '../restore/restore-text.js';
import type { StateDir } from '../state/layout.js';
import { windowRoomOf, type WindowRoom } from './window-room.js';

/** What the restore and spans tools read. */
export interface ToolSource {
  restore(handle: string): Promise<RestoreOutcome>;
  /** The room the window of the conversation that froze `handle` had left; undefined when unknown. */
  room(handle: string): Promise<WindowRoom | undefined>;
  list(): Promise<RestorableList>;
}

/** The tools over a local state directory, as `ctxshed mcp` always read. */
export function stateSource(state: StateDir): ToolSource {
  return {
    restore: (handle) => restoreText(state, handle),
    room: (handle) => windowRoomOf(state, handle),
    list: () => listRestorable(state),
  };
}
