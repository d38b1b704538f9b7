/**
 * What ctxshed wrote to a real client's screen after its banner (issue 41 item 4): `rescue` prints
 * its banner lines before the client starts and nothing after (docs/rescue.md). Every line of
 * ctxshed's starts `ctxshed: `; the banner's are the ones below. Any other, anywhere on a screen
 * the client drew (inside its input box too), is a stray.
 */

/** How each banner line begins: the proxy's line, when epochs latch, the metrics, the grant or its absence, Codex's lines. */
const BANNER = /^ctxshed: (?:\S+ on at |epochs latch at |Prometheus metrics at |no read grant|Claude Code \(|codex )/;

/**
 * The client showing an error answer of ctxshed's (a failure of the proxy is answered in the API's
 * error shape, its message naming ctxshed: docs/design.md): the status code or a JSON `message`
 * key right before it. That is the API's answer on the client's screen, not ctxshed writing there.
 */
const SHOWN_ANSWER = /(?:\b[1-5]\d\d\s+|"message"\s*:\s*")$/;

/** The lines of `screen` that carry something of ctxshed's other than its banner and its error answers as the client shows them, trimmed. */
export function strayLines(screen: string): string[] {
  return screen.split('\n').flatMap((line) => {
    const at = line.indexOf('ctxshed: ');
    if (at === -1) return [];
    return BANNER.test(line.slice(at)) || SHOWN_ANSWER.test(line.slice(0, at)) ? [] : [line.trim()];
  });
}

/** Stray lines gathered over every screen a run looked at, each once. */
export class StrayWatch {
  readonly #seen = new Set<string>();

  /** Looks at one screen; returns it, for use inline. */
  look(screen: string): string {
    for (const line of strayLines(screen)) this.#seen.add(line);
    return screen;
  }

  /** What was seen, in the order first seen. */
  get lines(): string[] {
    return [...this.#seen];
  }
}
