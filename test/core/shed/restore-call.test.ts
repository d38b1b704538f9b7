import { describe, expect, it } from 'vitest';
import { isRestoreCall } from '../../../src/core/shed/restore-call.js';
import type { ToolCall } from '../../../src/core/read-tool-calls.js';

const SHA = 'ab'.repeat(32);
const ELIDED = `/home/me/.ctxshed/elided/${SHA}.txt`;
const SPAN_MD = `/home/me/.ctxshed/spans/${SHA}.md`;

const call = (name: string, strings: Array<readonly [string, string]>): ToolCall => ({ id: 'c1', name, strings, numbers: new Map() });

describe('isRestoreCall', () => {
  it('should count a Codex shell call that cats, heads or sed -n prints a stored file as a read-back', () => {
    expect(isRestoreCall(call('exec_command', [['cmd', `cat ${ELIDED}`]]))).toBe(true);
    expect(isRestoreCall(call('shell', [['command', `bash -lc 'sed -n 1,200p ${SPAN_MD}'`]]))).toBe(true);
    expect(isRestoreCall(call('exec_command', [['cmd', `cd /tmp && head -n 50 ${ELIDED}`]]))).toBe(true);
    expect(isRestoreCall(call('exec', [['input', `text(await tools.exec_command({cmd: "cat ${ELIDED}"}))`]]))).toBe(true);
  });

  it('should not count a shell call that does something else with a stored file, or prints another file', () => {
    expect(isRestoreCall(call('exec_command', [['cmd', `rm ${ELIDED}`]]))).toBe(false);
    expect(isRestoreCall(call('exec_command', [['cmd', `ls ${ELIDED}`]]))).toBe(false);
    expect(isRestoreCall(call('exec_command', [['cmd', 'cat src/main.ts']]))).toBe(false);
    expect(isRestoreCall(call('exec_command', [['workdir', `cat ${ELIDED}`]]))).toBe(false);
  });

  it('should keep counting the restore tool and a Read of a stored file', () => {
    expect(isRestoreCall(call('mcp__ctxshed__restore', [['handle', SHA]]))).toBe(true);
    expect(isRestoreCall(call('Read', [['file_path', SPAN_MD]]))).toBe(true);
    expect(isRestoreCall(call('Read', [['file_path', '/src/a.ts']]))).toBe(false);
  });
});
