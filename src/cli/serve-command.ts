/** `ctxshed serve`: the proxy alone, until SIGINT or SIGTERM. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { startProxy } from '../proxy/start-proxy.js';
import { CliError } from './cli-error.js';
import { bindFrom } from './owner-options.js';
import { bannerLines, portFrom, proxyConfigFrom, withProxyOptions, type ProxyArgs } from './proxy-options.js';
import { wrapLines } from './wrap-words.js';
import { writeStdout } from './read-input.js';
import { serveHint } from './serve-hint.js';
import { announceProxy, metricsLine } from './proxy-announce.js';
import { checkStoreFlag, openStateOrFail, openStoreOrFail } from './state-option.js';
import os from 'node:os';
import { wholeExamples } from './help-examples.js';

/** `serve`'s own flags besides the shared ones. */
interface ServeArgs extends ProxyArgs {
  replicaName?: string | undefined;
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the proxy alone; print the ANTHROPIC_BASE_URL and ENABLE_TOOL_SEARCH to set, and the Claude Code flags rescue would add',
  builder: (yargs) =>
    withProxyOptions(yargs as Argv<object>)
      .option('replica-name', {
        type: 'string',
        describe: "This replica's name, a label `replica` on every metric (default with --store: <hostname>:<port>; without: none)",
      })
      .example(
        wholeExamples([
          [
            '$0 serve --port 8787',
            'Then: ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ENABLE_TOOL_SEARCH=true claude (plus the flags it prints); metrics at http://127.0.0.1:8787/_ctxshed/metrics',
          ],
          ['$0 serve --upstream http://127.0.0.1:9000 --state /tmp/st', 'Chain to another local proxy'],
          ['$0 serve --gate --horizon 40', 'Rescue only when the cache re-write pays back within 40 more turns'],
          ['$0 serve --store postgres://ctxshed@db/ctxshed --replica-name gw-1', 'One of several replicas sharing one Postgres (docs/team.md)'],
        ]),
      ) as unknown as Argv<ServeArgs>,
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    const config = proxyConfigFrom(args, process.env);
    const port = portFrom(args);
    checkStoreFlag(args.store);
    const bind = bindFrom(args);
    const state = await openStateOrFail(args.state);
    const store = await openStoreOrFail(args.store, state);
    const named = args.replicaName ?? (args.store === undefined ? undefined : `${os.hostname()}`);
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    try {
      const replicaName = named === undefined ? {} : { replicaName: (bound: number) => (args.replicaName === undefined ? `${named}:${bound}` : named) };
      proxy = await startProxy(config, state, port, { ...bind, store, ...replicaName });
    } catch (error) {
      await store.close();
      throw new CliError(`cannot listen on ${bind.host}:${port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const postgres = store.kind === 'postgres';
    const where = postgres ? [`ctxshed: store ${store.describe()}`] : [];
    const kept = postgres ? { elidedDir: 'the store', spansDir: 'the store' } : store.stubDirs;
    process.stderr.write(`${wrapLines([...bannerLines(config, proxy.url, kept), ...where, metricsLine(proxy.url)])}\n`);
    const forget = await announceProxy(state, proxy.url, 'serve');
    // Postgres keeps the originals on no disk the agent reads: its restore tool asks this proxy, with the owner key.
    const way = bind.ownerRule.kind !== 'none' ? 'owner-rule' : postgres ? 'owner-key' : 'files';
    await writeStdout(`${serveHint(proxy.url, state, undefined, way).join('\n')}\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    // In-flight requests finish; the wire log is flushed.
    await proxy.close();
    await store.close();
    await forget();
  },
};
