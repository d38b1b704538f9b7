import { describe, expect, it } from 'vitest';
// The kinds' registry names the folders whose files are stored texts (core/stored-files.ts); the core's entry loads it.
import { registerEpochKind } from '../../../src/core/epochs/kind-info.js';
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

describe("isRestoreCall, a kind's originals", () => {
  const original = (folder: string, ext: string): string => `/home/me/.ctxshed/${folder}/${SHA}.${ext}`;

  it("should count a Read or a print of a registered kind's original that it gives back, until the kind is removed", () => {
    const unregister = registerEpochKind({
      tag: 'probe_readback',
      mode: undefined,
      counts: 'items',
      byCommand: false,
      originals: 'probe_readback',
      restorable: { name: 'probe', ext: 'json' },
      render: () => '',
      filesOf: () => [],
    });
    try {
      expect(isRestoreCall(call('Read', [['file_path', original('probe_readback', 'json')]]))).toBe(true);
      expect(isRestoreCall(call('Read', [['file_path', original('probe_readback', 'md')]]))).toBe(true);
      expect(isRestoreCall(call('exec_command', [['cmd', `cat ${original('probe_readback', 'json')}`]]))).toBe(true);
      // Not the same name in a folder no kind gives back from.
      expect(isRestoreCall(call('Read', [['file_path', original('other', 'json')]]))).toBe(false);
    } finally {
      unregister();
    }
    expect(isRestoreCall(call('Read', [['file_path', original('probe_readback', 'json')]]))).toBe(false);
  });

  it("should not count a Read of a kind's originals that it does not give back (removed thinking), nor a tool result's exact JSON", () => {
    expect(isRestoreCall(call('Read', [['file_path', original('thinking', 'json')]]))).toBe(false);
    expect(isRestoreCall(call('Read', [['file_path', original('elided', 'json')]]))).toBe(false);
    expect(isRestoreCall(call('Read', [['file_path', original('spans', 'json')]]))).toBe(true);
    // A `.txt` named by a sha256 is an elided text wherever it lies: a stub names the path the proxy chose.
    expect(isRestoreCall(call('Read', [['file_path', original('spans', 'txt')]]))).toBe(true);
  });
});
