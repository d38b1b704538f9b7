/**
 * The `ctxshed` CLI with crash points armed (src/state/crash-point.ts): the entry the crash-point
 * and replica tests start instead of dist/src/cli/main.js. `CTXSHED_TEST_CRASH_AT` names the one
 * point that kills the process; the product's own entry never reads it.
 */
import { installCrashPort } from '../../src/state/crash-point.js';

const at = process.env['CTXSHED_TEST_CRASH_AT'];
installCrashPort({ armed: (name) => name === at });
await import('../../src/cli/main.js');
