/**
 * Support for the OpenAI properties: the dialect of a generated request, its index and plan, and
 * a reference reading of its tool outputs from `JSON.parse` output, with none of the core's byte
 * offsets, following the policy's wording (docs/design.md "Eligible block", items for messages).
 */
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { parseStub } from '../../src/core/stub.js';
import { planElision, type PlannedBlock } from '../../src/core/plan-elision.js';
import { planParts } from '../../src/core/epochs/tool-results/plan-parts.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import type { ApiDialect } from '../../src/core/dialects/dialect.js';
import type { ElisionPolicy } from '../../src/core/epoch-types.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import type { OpenAiApiName, OpenAiRequest } from '../arbitraries/openai-transcript.js';
import { isJsonArray, isJsonObject, type JsonValue } from '../arbitraries/styled-json.js';
import { isWellFormed, utf8 } from './bytes.js';
import { REFERENCE_PLACEHOLDER } from './reference.js';
import { sha256 } from './sha256.js';

/** The dialect a generated request speaks. */
export function dialectOf(api: OpenAiApiName): ApiDialect {
  return api === 'responses' ? RESPONSES_API : CHAT_API;
}

/** The index of a body the generators made (they always index). */
export function openAiIndexOf(api: OpenAiApiName, body: Uint8Array): TranscriptIndex {
  const outcome = dialectOf(api).index(body);
  if (outcome.kind !== 'indexed') throw new Error(`generated ${api} body does not index: ${outcome.reason}: ${outcome.detail}`);
  return outcome.index;
}

/** The elision plan of a generated request: its tool outputs, and its parts when the policy has a deeper cut. */
export function openAiPlanOf(request: OpenAiRequest, policy: ElisionPolicy): PlannedBlock[] {
  const index = openAiIndexOf(request.api, request.bytes);
  const results = planElision(request.bytes, index, policy, sha256);
  if (policy.deep === undefined) return results;
  const api = dialectOf(request.api);
  return [...results, ...planParts({ body: request.bytes, index, policy, readSites: api.partSites, readCalls: api.calls }, sha256)];
}

/** A tool output found by walking parsed JSON. */
export interface ReferenceOutput {
  readonly ordinal: number;
  readonly itemIndex: number;
  readonly callId: JsonValue | undefined;
  /** Its text when it is text only (a string, or text parts of exactly `type` and `text`, joined by "\n"). */
  readonly text: string | undefined;
  /** A part carries a cache mark. */
  readonly marked: boolean;
}

/** Every tool output of a parsed body, in document order. */
export function referenceOutputs(api: OpenAiApiName, body: JsonValue): ReferenceOutput[] {
  const listKey = api === 'responses' ? 'input' : 'messages';
  const list = isJsonObject(body) ? body[listKey] : undefined;
  if (!isJsonArray(list)) return [];
  const out: ReferenceOutput[] = [];
  list.forEach((item, itemIndex) => {
    if (!isJsonObject(item)) return;
    const isOutput = api === 'responses' ? item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output' : item['role'] === 'tool';
    if (!isOutput) return;
    const value = api === 'responses' ? item['output'] : item['content'];
    const part = api === 'responses' ? 'input_text' : 'text';
    out.push({
      ordinal: out.length,
      itemIndex,
      callId: api === 'responses' ? item['call_id'] : item['tool_call_id'],
      text: textOf(value, part),
      marked: isJsonArray(value) && value.some((p) => isJsonObject(p) && ('prompt_cache_breakpoint' in p || 'cache_control' in p)),
    });
  });
  return out;
}

function textOf(value: JsonValue | undefined, part: string): string | undefined {
  if (typeof value === 'string') return value;
  if (!isJsonArray(value) || value.length === 0) return undefined;
  const texts: string[] = [];
  for (const p of value) {
    if (!isJsonObject(p) || p['type'] !== part || typeof p['text'] !== 'string' || Object.keys(p).length !== 2) return undefined;
    texts.push(p['text']);
  }
  return texts.join('\n');
}

/** The outputs the policy makes eligible: older than the newest `keepRecent`, not the last item, no cache mark, text over `minBytes` that is not a placeholder or stub. */
export function referenceEligibleOutputs(api: OpenAiApiName, body: JsonValue, policy: ElisionPolicy): ReferenceOutput[] {
  const all = referenceOutputs(api, body);
  const list = isJsonObject(body) ? body[api === 'responses' ? 'input' : 'messages'] : undefined;
  const last = (isJsonArray(list) ? list.length : 0) - 1;
  return all.filter(
    (o) =>
      o.ordinal < all.length - policy.keepRecent &&
      o.itemIndex !== last &&
      !o.marked &&
      typeof o.callId === 'string' &&
      o.text !== undefined &&
      isWellFormed(o.text) &&
      o.text !== REFERENCE_PLACEHOLDER &&
      parseStub(o.text) === undefined &&
      utf8(o.text).length > policy.minBytes,
  );
}
