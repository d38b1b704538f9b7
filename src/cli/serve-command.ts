/** `ctxshed serve`: the proxy alone, until SIGINT or SIGTERM. */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { startProxy } from '../proxy/start-proxy.js';
import { CliError } from './cli-error.js';
import { bindFrom } from './owner-options.js';
import { bannerLine, proxyConfigFrom, withProxyOptions, type ProxyArgs } from './proxy-options.js';
import { writeStdout } from './read-input.js';
import { serveHint } from './serve-hint.js';
import { announceProxy, metricsLine } from './proxy-announce.js';
import { openStateOrFail } from './state-option.js';

export const serveCommand: CommandModule<object, ProxyArgs> = {
  command: 'serve',
  describe: 'Run the proxy alone; print the ANTHROPIC_BASE_URL and ENABLE_TOOL_SEARCH to set, and the Claude Code flags rescue would add',
  builder: (yargs) =>
    withProxyOptions(yargs as Argv<object>)
      .example(
        '$0 serve --port 8787',
        'Then: ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ENABLE_TOOL_SEARCH=true claude (plus the flags it prints); metrics at http://127.0.0.1:8787/_ctxshed/metrics',
      )
      .example('$0 serve --upstream http://127.0.0.1:9000 --state /tmp/st', 'Chain to another local proxy')
      .example('$0 serve --gate --horizon 40', 'Rescue only when the cache re-write pays back within 40 more turns') as unknown as Argv<ProxyArgs>,
  handler: async (args: ArgumentsCamelCase<ProxyArgs>) => {
    const config = proxyConfigFrom(args, process.env);
    const bind = bindFrom(args);
    const state = await openStateOrFail(args.state);
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    try {
      proxy = await startProxy(config, state, args.port, bind);
    } catch (error) {
      throw new CliError(`cannot listen on ${bind.host}:${args.port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    process.stderr.write(`${bannerLine(config, proxy.url, state)}\n${metricsLine(proxy.url)}\n`);
    const forget = await announceProxy(state, proxy.url, 'serve');
    await writeStdout(`${serveHint(proxy.url, state, undefined, bind.ownerRule.kind !== 'none').join('\n')}\n`);
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
    await forget();
  },
};
