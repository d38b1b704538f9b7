/** Hand-built Messages bodies with real thinking block shapes, for the thinking tests. */
import { utf8 } from '../bodies.js';

/** A signed thinking block as Claude Code sends it back with `display: "omitted"`. */
export function thinkingBlock(seed: number): string {
  return `{"type":"thinking","thinking":"","signature":"Sig${seed}${'x'.repeat(40 + seed)}=="}`;
}

/** A redacted thinking block. */
export function redactedBlock(seed: number): string {
  return `{"type":"redacted_thinking","data":"Enc${seed}${'y'.repeat(30 + seed)}"}`;
}

/**
 * A tool loop on claude-opus-5-5: a user prompt, then `turns` assistant turns (thinking, text,
 * tool_use; the 2nd one's thinking redacted) each answered by a big tool_result.
 */
export function thinkingLoop(turns: number, model = 'claude-opus-5-5', resultBytes = (t: number): number => 1500 + 0 * t): Uint8Array {
  const messages: string[] = ['{"role":"user","content":"fix the bug please"}'];
  for (let t = 0; t < turns; t++) {
    const thinking = t === 1 ? redactedBlock(t) : thinkingBlock(t);
    messages.push(
      `{"role":"assistant","content":[${thinking}, {"type":"text","text":"step ${t}"},{"type":"tool_use","id":"tu_${t}","name":"Read","input":{"file_path":"/f${t}"}}]}`,
    );
    messages.push(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu_${t}","content":"${'r'.repeat(resultBytes(t))}${t}"}]}`);
  }
  return utf8(`{"model":"${model}","max_tokens":1000,"thinking":{"type":"adaptive","display":"omitted"},"messages":[${messages.join(',')}]}`);
}
