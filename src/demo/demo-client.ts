/**
 * The demo's client: the scripted client (src/scripted/client.ts) with the demo's system prompt,
 * its Read and Bash tools, and a tool runner over the pretend project. Like the real Read tool, it
 * reads any other path from disk: that is how an elided file named by a stub comes back.
 */
import fs from 'node:fs/promises';
import { errorText } from '../errors.js';
import { ScriptedClient, type Block } from '../scripted/client.js';
import { commandOutput, DEMO_PROJECT_ROOT, fileContents } from './demo-workspace.js';

/** The model the demo client asks for (the scripted API answers as the model asked for). */
export const DEMO_MODEL = 'claude-sonnet-4-5-20250929';
const CACHE_CONTROL = { type: 'ephemeral' } as const;
const SYSTEM: readonly Block[] = [
  { type: 'text', text: 'x-anthropic-billing-header: cc_version=demo; cc_entrypoint=ctxshed-demo;' },
  { type: 'text', text: 'You are a scripted coding agent run by `ctxshed demo`.', cache_control: CACHE_CONTROL },
  { type: 'text', text: `You help with the project in ${DEMO_PROJECT_ROOT}. Use the Read and Bash tools. `.repeat(24), cache_control: CACHE_CONTROL },
];
const TOOLS: readonly Block[] = [
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem. The file_path parameter must be an absolute path.',
    input_schema: {
      type: 'object',
      properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' } },
      required: ['file_path'],
    },
  },
  {
    name: 'Bash',
    description: 'Executes a given bash command and returns its output.',
    input_schema: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] },
  },
];

/** The demo's one conversation, sent to `baseUrl` (the proxy); `runId` makes each run a conversation of its own. */
export function createDemoClient(baseUrl: string, runId: string): ScriptedClient {
  return new ScriptedClient(baseUrl, {
    model: DEMO_MODEL,
    firstContent: `Have a look around ${DEMO_PROJECT_ROOT} and run its tests. (ctxshed demo run ${runId})`,
    system: SYSTEM,
    tools: TOOLS,
    userId: JSON.stringify({ device_id: 'demo', account_uuid: '', session_id: 'demo' }),
    stream: true,
    headers: { 'x-api-key': 'sk-ant-demo-not-a-real-key', 'x-app': 'cli' },
    runTool: runDemoTool,
    nextPrompt: () => 'Go on.',
  });
}

async function runDemoTool(use: Block, turn: number): Promise<string> {
  const input = (use['input'] ?? {}) as Record<string, unknown>;
  if (use['name'] === 'Bash') return commandOutput(String(input['command']), turn);
  const file = String(input['file_path']);
  // The pretend project is generated; any other path is read from disk.
  if (file.startsWith(`${DEMO_PROJECT_ROOT}/`)) return fileContents(file, turn);
  return fs.readFile(file, 'utf8').catch((error: unknown) => `<tool_use_error>${errorText(error)}</tool_use_error>`);
}
