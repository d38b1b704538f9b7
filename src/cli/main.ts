#!/usr/bin/env node
/** The `ctxshed` executable. */
import { hideBin } from 'yargs/helpers';
import { runCli } from './run-cli.js';

process.exitCode = await runCli(hideBin(process.argv));
