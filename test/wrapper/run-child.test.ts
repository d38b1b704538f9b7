import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runChild, type ChildOutcome } from '../../src/wrapper/run-child.js';
import { createFixtureCommands, type FixtureCommands } from './helpers/fixture-commands.js';
import { killStartedProcesses, runWrapper, startProcess, wrapperArgv } from './helpers/run-wrapper.js';

/** A stderr that keeps what is written to it. */
function collectingStream(): Writable & { text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join('') });
}

describe('runChild', () => {
  let fixtures: FixtureCommands;
  beforeAll(async () => {
    fixtures = await createFixtureCommands();
  });
  afterAll(() => fixtures.remove());
  afterEach(() => killStartedProcesses());

  // Fixtures here print nothing: they share the test runner's stdio.
  it.each<{ name: string; argv: [string, ...string[]]; expected: ChildOutcome }>([
    { name: 'an exit with 0', argv: ['exit-with', '0'], expected: { kind: 'exited', code: 0 } },
    { name: 'an exit with 3', argv: ['exit-with', '3'], expected: { kind: 'exited', code: 3 } },
    { name: 'death by SIGTERM', argv: ['kill-self', 'TERM'], expected: { kind: 'signaled', signal: 'SIGTERM' } },
    { name: 'death by SIGHUP', argv: ['kill-self', 'HUP'], expected: { kind: 'signaled', signal: 'SIGHUP' } },
  ])('should report $name', async ({ argv: [command, ...args], expected }) => {
    // Act
    const outcome = await runChild(command, args, { env: fixtures.env });

    // Assert
    expect(outcome).toEqual(expected);
  });

  it.each([
    {
      name: 'a missing command as 127',
      command: 'no-such-command-ctxshed',
      code: 127,
      line: 'ctxshed: command not found: no-such-command-ctxshed',
    },
    {
      name: 'a command that is not executable as 126',
      command: 'not-executable',
      code: 126,
      line: 'ctxshed: permission denied: not-executable',
    },
    {
      // Node throws this one from spawn() instead of emitting 'error'.
      name: 'a path through a regular file as 126',
      command: 'DIR/exit-with/x',
      code: 126,
      line: 'ctxshed: cannot run DIR/exit-with/x: ENOTDIR',
    },
  ])('should report $name, with one line on stderr', async ({ command, code, line }) => {
    // Arrange
    const stderr = collectingStream();
    const inFixtures = (text: string): string => text.replace('DIR', fixtures.dir);

    // Act
    const outcome = await runChild(inFixtures(command), [], { env: fixtures.env, stderr });

    // Assert
    expect(outcome).toEqual({ kind: 'spawn-failed', code, message: inFixtures(line) });
    expect(stderr.text()).toBe(`${inFixtures(line)}\n`);
  });

  it.each([
    { name: 'after the child exits', command: 'exit-with' },
    { name: 'after a failed start', command: 'no-such-command-ctxshed' },
  ])('should listen for signals while running, and stop $name', async ({ command }) => {
    // Arrange
    const before = ['SIGINT', 'SIGTERM', 'SIGUSR2'].map((signal) => process.listenerCount(signal));

    // Act
    const running = runChild(command, ['0'], { env: fixtures.env, stderr: collectingStream() });
    const during = ['SIGINT', 'SIGTERM', 'SIGUSR2'].map((signal) => process.listenerCount(signal));
    await running;
    const after = ['SIGINT', 'SIGTERM', 'SIGUSR2'].map((signal) => process.listenerCount(signal));

    // Assert
    expect(during).toEqual(before.map((count) => count + 1));
    expect(after).toEqual(before);
  });

  it('should give the child its environment, with the extra variable', async () => {
    const env = { ...fixtures.env, WRAP_CHILD_BASE_URL: 'http://127.0.0.1:4321' };
    const run = await runWrapper(['say-env'], env);

    expect(run).toMatchObject({ code: 0, stdout: 'ANTHROPIC_BASE_URL=http://127.0.0.1:4321\n' });
  });

  it("should let the child read the wrapper's stdin and write to its stdout", async () => {
    // Arrange
    const run = startProcess(wrapperArgv(['echo-stdin']), fixtures.env);

    // Act
    run.child.stdin?.end('hello from the parent');
    const result = await run.done;

    // Assert
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: 'child read: hello from the parent',
      stderr: '',
    });
  });

  // Sent by pid, with no terminal involved: each one reaches the child only by forwarding.
  it.each<{ signal: NodeJS.Signals; code: number }>([
    { signal: 'SIGTERM', code: 42 },
    { signal: 'SIGINT', code: 43 },
    { signal: 'SIGHUP', code: 44 },
    { signal: 'SIGUSR2', code: 45 },
    { signal: 'SIGWINCH', code: 46 },
  ])('should forward $signal sent to the wrapper to the child', async ({ signal, code }) => {
    // Arrange
    const run = startProcess(wrapperArgv(['trap-signal', signal, String(code)]), fixtures.env);
    await run.waitForStdout('ready');

    // Act
    run.child.kill(signal);
    const result = await run.done;

    // Assert
    expect({ code: result.code, signal: result.signal }).toEqual({ code, signal: null });
  });
});
