/**
 * A request body that is still arriving: forwarded upstream as it comes, and kept, so that the
 * one retry on a stale keep-alive socket (forward.ts) can replay it from the start.
 */
import type { ClientRequest } from 'node:http';

export class BodyPump {
  readonly #chunks: Buffer[];
  #size: number;
  #ended = false;
  #pumping = false;
  #target: ClientRequest | undefined;

  /** `head` is what has arrived so far, `rest` the client's stream after it, `length` its content-length. */
  constructor(
    head: Buffer,
    private readonly rest: AsyncIterator<unknown>,
    readonly length: number,
  ) {
    this.#chunks = [head];
    this.#size = head.length;
  }

  /** Bytes received from the client so far. */
  get received(): number {
    return this.#size;
  }

  /** Sends the body to `target`: what has arrived at once, the rest as it comes. */
  attach(target: ClientRequest): void {
    this.#target = target;
    for (const chunk of this.#chunks) target.write(chunk);
    if (this.#ended) target.end();
    else if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      for (;;) {
        const next = await this.rest.next();
        if (next.done === true) {
          this.#ended = true;
          this.#target?.end();
          return;
        }
        const chunk = next.value as Buffer;
        this.#chunks.push(chunk);
        this.#size += chunk.length;
        // A retry may have swapped the target while this awaited; it replayed every kept chunk.
        const target = this.#target;
        if (target !== undefined && !target.write(chunk)) await drained(target);
      }
    } catch (error) {
      // The client broke off its upload: the upstream must not take a cut body for a whole one.
      this.#target?.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function drained(target: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.once('drain', done);
    target.once('close', done);
  });
}
