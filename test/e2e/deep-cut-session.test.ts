/**
 * The deeper cut end to end (docs/rescue.md "The deeper cut"): the real proxy on port 0 in front
 * of the scripted API. The scripted model writes files (Write calls with large contents) and says
 * what it did; once an epoch takes those old inputs, the model reads one back from the file its
 * stub names, and the client's Read gets the content the model wrote, byte for byte. Every body the
 * API got inflates to what the client sent, passes the checker written apart from the code, and
 * none was refused.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient, type Block } from '../../src/scripted/client.js';
import { toolUse } from '../../src/scripted/message.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { filler } from '../core/bodies.js';
import { deepCutViolations } from '../support/deep-cut-checker.js';
import { startTestApi } from '../support/scripted-api.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** What the model writes on its n-th turn. */
const contentOf = (n: number): string => `// file ${n}\n${filler(3000, n)}\n"quoted" \\ and é\n`;

/** The file a tool input stub in the body names, and the Write it stands for. */
function inputStubIn(body: Buffer): { file: string; write: number } | undefined {
  const m = /the content of Write \\"\/src\/w-(\d+)\.ts\\", \d+ bytes; read (\/[^\s"\\]*\/elided\/[0-9a-f]{64}\.txt)/.exec(body.toString('utf8'));
  return m === null ? undefined : { write: Number(m[1]), file: m[2]! };
}

describe('the deeper cut through the proxy', () => {
  it("should stub old Write inputs, and give the model a Write's content back exactly when it reads the stub's file", async () => {
    const dir = await tempStateDir();
    let readBack: { file: string; write: number } | undefined;
    const api = await startTestApi({
      respond: (req) => {
        if (!isMessagesRequest(req)) return undefined;
        const stub = readBack === undefined ? inputStubIn(req.body) : undefined;
        if (stub !== undefined) {
          readBack = stub;
          return { kind: 'message', content: [toolUse('Read', { file_path: stub.file })], outputTokens: 20 };
        }
        const said = { type: 'text' as const, text: `Writing the next file, turn ${req.index}. ${filler(300, req.index)}` };
        return {
          kind: 'message',
          content: [said, toolUse('Write', { file_path: `/src/w-${req.index}.ts`, content: contentOf(req.index) })],
          outputTokens: 900,
        };
      },
    });
    const deep = { parts: ['tool_input', 'assistant_text'] as const, inputMinBytes: 256, textMinBytes: 256 };
    const proxy = await startTestProxy(dir, testConfig(api.url, { keepRecent: 2, minBytes: 1024, deep }));
    // The client runs Read for real (a read-back), and answers a Write in one line, as Claude Code does.
    const read: string[] = [];
    const runTool = (use: Block): string => {
      const input = use['input'] as { file_path: string };
      if (use['name'] !== 'Read') return `File created successfully at: ${input.file_path}`;
      const text = fs.readFileSync(input.file_path, 'utf8');
      read.push(text);
      return text;
    };
    const client = new ScriptedClient(proxy.url, { runTool });
    cleanups.push(
      () => api.close(),
      () => proxy.close(),
      () => client.close(),
    );

    let turns = 0;
    while (read.length === 0 && turns < 60) {
      await client.turnOnce();
      turns += 1;
    }
    await client.turnOnce();

    expect(readBack).toBeDefined();
    expect(read).toEqual([contentOf(readBack!.write)]);
    expect(api.refusedForSize()).toBe(0);
    const wire = await waitForWire(dir, turns + 1);
    expect(wire.every((r) => r['status'] === 200)).toBe(true);
    expect(wire.filter((r) => r['refaults'] !== undefined)).toHaveLength(1);
    const state = layoutPaths(dir);
    for (const req of api.requests.filter(isMessagesRequest)) {
      const inflated = (await inflateFromState(state, req.body)).body;
      expect(deepCutViolations(inflated, req.body, 'messages')).toEqual([]);
    }
  });
});
