/**
 * Refaults in a replay (docs/rescue.md, "Refaults"): where the recorded session itself re-read a
 * file whose earlier result rescue would have elided. The session never saw a stub, so a re-read
 * is the nearest thing it shows to the agent reading an elided block back: a Read of the same
 * file_path as the elided result's own Read, in a later request. Pure: messages in, counts out.
 */
import type { FrozenBlock } from '../core/index.js';
import type { ApiMessage } from './rebuild-conversations.js';

/** A replay's refault figure, as the proxy's reports give it. */
export interface RefaultFigure {
  /** Blocks rescue elided (tool results shed mode shed), over all conversations. */
  readonly blocksElided: number;
  /** Of those, blocks whose file a later Read of the session opened again. */
  readonly blocksRefaulted: number;
  /** Those later Reads. */
  readonly refaults: number;
  /** blocksRefaulted / blocksElided; null with nothing elided. */
  readonly rate: number | null;
}

/** Re-reads per conversation, fed each request before and after the rescue (or shed) prepared it. */
export class ReplayRefaults {
  /** Per conversation: file_path -> the elided blocks (tool_use ids) whose Read opened it. */
  readonly #elided = new Map<string, Map<string, Set<string>>>();
  readonly #refaulted = new Set<string>();
  readonly #counted = new Set<string>();
  /** Per conversation: the epochs its blocks were last noted under (the elided set only grows with them). */
  readonly #epochs = new Map<string, number>();
  #refaults = 0;

  /** Counts the Reads of the request's newest assistant message that open a file elided earlier. */
  observe(conversation: string, messages: readonly ApiMessage[]): void {
    const elided = this.#elided.get(conversation);
    if (elided === undefined) return;
    for (const call of newestReads(messages)) {
      const blocks = elided.get(call.filePath);
      if (blocks === undefined || this.#counted.has(`${conversation}/${call.id}`)) continue;
      this.#counted.add(`${conversation}/${call.id}`);
      this.#refaults += 1;
      for (const id of blocks) this.#refaulted.add(`${conversation}/${id}`);
    }
  }

  /**
   * Notes the blocks a request carrying `epochs` epochs went out with as stubs, by the file their
   * Read opened; a request with no more epochs than the last one noted adds nothing new. Shed
   * mode passes the tool results of its spans.
   */
  elide(conversation: string, epochs: number, messages: readonly ApiMessage[], blocks: ReadonlyArray<Pick<FrozenBlock, 'toolUseId'>>): void {
    if (blocks.length === 0 || (this.#epochs.get(conversation) ?? 0) >= epochs) return;
    this.#epochs.set(conversation, epochs);
    const reads = readsById(messages);
    let elided = this.#elided.get(conversation);
    if (elided === undefined) {
      elided = new Map();
      this.#elided.set(conversation, elided);
    }
    for (const block of blocks) {
      const filePath = reads.get(block.toolUseId);
      if (filePath === undefined) continue; // not a Read's result: no file to re-read
      const ids = elided.get(filePath) ?? new Set<string>();
      ids.add(block.toolUseId);
      elided.set(filePath, ids);
    }
  }

  /** The figure, given how many blocks rescue elided in all. */
  figure(blocksElided: number): RefaultFigure {
    const blocksRefaulted = this.#refaulted.size;
    const rate = blocksElided === 0 ? null : Math.round((blocksRefaulted / blocksElided) * 10_000) / 10_000;
    return { blocksElided, blocksRefaulted, refaults: this.#refaults, rate };
  }
}

interface ReadCall {
  readonly id: string;
  readonly filePath: string;
}

function newestReads(messages: readonly ApiMessage[]): ReadCall[] {
  const newest = messages.findLast((m) => m.role === 'assistant');
  return newest === undefined ? [] : newest.content.flatMap(readCallOf);
}

function readsById(messages: readonly ApiMessage[]): Map<string, string> {
  const reads = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant') for (const call of m.content.flatMap(readCallOf)) reads.set(call.id, call.filePath);
  return reads;
}

function readCallOf(block: unknown): ReadCall[] {
  if (typeof block !== 'object' || block === null) return [];
  const b = block as { type?: unknown; id?: unknown; name?: unknown; input?: unknown };
  if (b.type !== 'tool_use' || b.name !== 'Read' || typeof b.id !== 'string') return [];
  const input = b.input as { file_path?: unknown } | null | undefined;
  return typeof input?.file_path === 'string' ? [{ id: b.id, filePath: input.file_path }] : [];
}

/** The tool_use ids the tool results in messages `first..last` answer: what a shed span took out, for refaults. */
export function spanToolResults(messages: readonly ApiMessage[], first: number, last: number): Array<{ readonly toolUseId: string }> {
  const out: Array<{ readonly toolUseId: string }> = [];
  for (const m of messages.slice(first, last + 1)) {
    if (m.role !== 'user') continue;
    for (const block of m.content) {
      const b = block as { type?: unknown; tool_use_id?: unknown } | null;
      if (b !== null && typeof b === 'object' && b.type === 'tool_result' && typeof b.tool_use_id === 'string') out.push({ toolUseId: b.tool_use_id });
    }
  }
  return out;
}
