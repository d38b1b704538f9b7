/**
 * Keeps each conversation's first prompt in `<state>/previews/` (state/preview-file.ts) from its
 * first model call, so the reports show every conversation by its prompt, latched or not. Once
 * per conversation and process, off the request's path: the request never waits for it, and a
 * failure only leaves the preview out.
 */
import { findFirstMessage, promptOfFirstMessage, type ApiDialect, type TranscriptIndex } from '../core/index.js';
import type { StateDir } from '../state/layout.js';
import { sessionHashOf, writePreviewOnce } from '../state/preview-file.js';
import type { RequestMeta } from './request-meta.js';

/** The most conversations one process remembers having written; past it, the file's `wx` keeps the first. */
const SEEN_LIMIT = 10_000;

export class PreviewWriter {
  readonly #seen = new Set<string>();
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly state: StateDir,
    private readonly now: () => Date,
  ) {}

  /** Notes the conversation `key` of a model call; the first call of each writes its preview. */
  note(key: string, body: Uint8Array, api: ApiDialect, index: TranscriptIndex | undefined, meta: RequestMeta): void {
    if (this.#seen.has(key)) return;
    if (this.#seen.size >= SEEN_LIMIT) this.#seen.clear();
    this.#seen.add(key);
    let firstPrompt: string;
    try {
      firstPrompt = index === undefined ? promptOfHead(body) : api.firstPrompt(body, index);
    } catch {
      return; // the first message did not read: no preview, the rest goes on
    }
    const preview = {
      key,
      session: meta.sessionId === undefined ? null : sessionHashOf(meta.sessionId),
      agentId: meta.agentId ?? null,
      firstPrompt,
      t: this.now().toISOString(),
    };
    const write = writePreviewOnce(this.state, preview).catch(() => undefined);
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** Resolves once every preview begun so far is written (or given up). */
  async settle(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}

function promptOfHead(body: Uint8Array): string {
  const first = findFirstMessage(body);
  return first === null || first === undefined ? '' : promptOfFirstMessage(body, first);
}
