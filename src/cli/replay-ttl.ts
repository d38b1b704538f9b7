/** `ctxshed replay --ttl FILES-OR-DIRS...`: the cache-TTL back-test over real transcripts. */
import path from 'node:path';
import { listSessionFiles, readSession, TranscriptInputError } from '../replay/read-sessions.js';
import { renderTtl } from '../replay/render-ttl.js';
import { backtestTtl } from '../replay/ttl-backtest.js';
import { toTtlConversations } from '../replay/ttl-input.js';
import { pairRequests, type TtlConversation } from '../replay/ttl-pairs.js';
import { errorText } from '../errors.js';
import { CliError } from './cli-error.js';
import { writeStdout } from './read-input.js';

/** Reads every session under `paths` (folders walked recursively) and prints the back-test. */
export async function runTtlBacktest(paths: readonly string[], json: boolean): Promise<void> {
  const files = await listSessionFiles(paths, true).catch((error: unknown) => {
    throw new CliError(`cannot read transcripts: ${errorText(error)}`);
  });
  const progress = progressLine(files.length);
  const conversations: TtlConversation[] = [];
  let requests = 0;
  try {
    for (const [i, file] of files.entries()) {
      // Messages are dropped as soon as a session is read: a whole ~/.claude/projects stays small.
      const session = await readSession(file).catch((error: unknown) => {
        // A file in the folders that is not a transcript is named and left out; anything else stops the test.
        if (error instanceof TranscriptInputError) {
          process.stderr.write(`ctxshed: skipped ${error.message}\n`);
          return undefined;
        }
        throw new CliError(`cannot read ${file}: ${errorText(error)}`);
      });
      if (session === undefined) continue;
      const light = toTtlConversations(path.resolve(file), session.conversations);
      for (const c of light) requests += c.requests.length;
      conversations.push(...light);
      progress.update(i + 1, requests);
    }
  } finally {
    progress.done();
  }
  const report = backtestTtl(pairRequests(conversations), files.length);
  if (json) await writeStdout(`${JSON.stringify({ ttl: report }, null, 2)}\n`);
  else await writeStdout(report.requests === 0 ? 'no requests found in those transcripts\n' : renderTtl(report));
}

/** One overwriting line on stderr, only when stderr is a terminal (never in a log or a pipe). */
function progressLine(total: number): { update(done: number, requests: number): void; done(): void } {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    update(done, requests) {
      if (!tty) return;
      shown = true;
      process.stderr.write(
        `\r\x1b[Kctxshed: reading transcripts: ${done}/${total} ${total === 1 ? 'file' : 'files'}, ${requests.toLocaleString('en-US')} requests`,
      );
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
