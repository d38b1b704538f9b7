/** An agent's request of about 500 KB (a conversation of 100 Read results): the normal request the drip-feed test and bench send beside slow uploads. */
import { ScriptedClient } from '../../src/scripted/client.js';

/** The body, as the scripted client sends it. */
export function agentBody(): Buffer {
  const client = new ScriptedClient('http://127.0.0.1:9');
  for (let i = 0; i < 100; i++) {
    const id = `toolu_${String(i).padStart(4, '0')}`;
    client.messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/src/f${i}.ts` } }] });
    client.messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `file ${i}\n${'x'.repeat(5000)}` }] });
  }
  return client.body();
}
