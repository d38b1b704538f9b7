#!/usr/bin/env node
/** The `ctxshed` executable. */
import { hideBin } from 'yargs/helpers';
import { runCli } from './run-cli.js';

// `ctxshed show SPAN | head`: a reader that stops early closes the pipe. That ends the output,
// as it does for any Unix tool, and is no error to print a stack trace for.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await runCli(hideBin(process.argv));
