/**
 * Sessions for the label properties: tool calls whose paths and commands repeat (so the rules
 * fire), results that fail and succeed, texts that repeat, and secrets planted in results and
 * in the calls' inputs. Each generated secret is unique, so "it appears nowhere" can be checked
 * byte for byte.
 */
import fc from 'fast-check';
import { freezeLabelled } from '../../src/core/labels/freeze-labelled.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { labelBlocks } from '../../src/core/labels/label-blocks.js';
import { planElision, type PlannedBlock } from '../../src/core/plan-elision.js';
import type { BlockLabel, LedgerRow } from '../../src/core/labels/label-types.js';
import type { ElisionPolicy, FrozenBlock } from '../../src/core/epoch-types.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { textArb } from '../arbitraries/text.js';
import { utf8 } from './bytes.js';
import { sha256 } from './sha256.js';

/** Where a secret goes, and the text around it. */
export type SecretForm = 'bearer' | 'field' | 'env' | 'stripe' | 'url' | 'pem' | 'email';

/** The forms that are certain (the block must be labelled by the secret rule). */
export const CERTAIN_FORMS: readonly SecretForm[] = ['bearer', 'field', 'env', 'stripe', 'url', 'pem'];

/** A secret form around its token `t` (letters and digits). */
export function plantSecret(form: SecretForm, t: string): string {
  switch (form) {
    case 'bearer':
      return `curl -H 'Authorization: Bearer ${t}' https://api.example.com/charges`;
    case 'field':
      return `{"api_key": "${t}"}`;
    case 'env':
      return `\nAWS_SECRET_ACCESS_KEY=${t}\n`;
    case 'stripe':
      return `key sk_live_${t} here`;
    case 'url':
      return `postgres://app:${t}@db:5432/app`;
    case 'pem':
      return `\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${t}\n-----END PRIVATE KEY-----\n`;
    case 'email':
      return ` owner ${t}@personal.io `;
  }
}

/** A unique-enough token: starts with a letter, holds a digit, 24 characters. */
export const tokenArb: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'), minLength: 22, maxLength: 22 })
  .map((s) => `Q${s}7`);

/** One call of a generated session. */
export interface SessionCall {
  readonly name: 'Read' | 'Edit' | 'Bash' | 'Grep' | 'mcp__x__y';
  /** Index into a small set of paths or commands, so calls repeat. */
  readonly target: number;
  readonly text: string;
  /** Reuse an earlier result's text (a duplicate), when there is one. */
  readonly copyOf: number | undefined;
  readonly isError: boolean;
  /** Plant the session's secret in this result's text. */
  readonly secretInResult: boolean;
  /** Plant it in the call's input (a Bash command carrying a header). */
  readonly secretInInput: boolean;
}

const bigTextArb = textArb(fc.integer({ min: 900, max: 3000 }));

export const sessionCallArb: fc.Arbitrary<SessionCall> = fc.record({
  name: fc.constantFrom('Read', 'Read', 'Edit', 'Bash', 'Bash', 'Grep', 'mcp__x__y'),
  target: fc.integer({ min: 0, max: 2 }),
  text: bigTextArb,
  copyOf: fc.option(fc.nat({ max: 10 }), { nil: undefined, freq: 4 }),
  isError: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  secretInResult: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  secretInInput: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
});

/** A generated session: its calls, the secret and the form it is planted in. */
export interface SessionSpec {
  readonly calls: readonly SessionCall[];
  readonly token: string;
  readonly form: SecretForm;
}

export const sessionSpecArb: fc.Arbitrary<SessionSpec> = fc.record({
  calls: fc.array(sessionCallArb, { minLength: 1, maxLength: 12 }),
  token: tokenArb,
  form: fc.constantFrom<SecretForm>('bearer', 'field', 'env', 'stripe', 'url', 'pem', 'email'),
});

/** The text a session's planted secret is found by: the token itself. */
export function secretOf(spec: SessionSpec): string {
  return spec.token;
}

/** The request body of a session: prompt, then per call a tool_use and its tool_result, then a closing prompt. */
export function sessionBody(spec: SessionSpec): Uint8Array {
  const messages: unknown[] = [{ role: 'user', content: 'Fix the double charge in the retry path.' }];
  const texts: string[] = [];
  spec.calls.forEach((call, i) => {
    const path = `/src/file-${call.target}.ts`;
    const command = call.secretInInput ? plantSecret('bearer', spec.token) : `npm run task-${call.target}`;
    const input =
      call.name === 'Read'
        ? { file_path: path }
        : call.name === 'Edit'
          ? { file_path: path, old_string: 'a', new_string: 'b' }
          : call.name === 'Grep'
            ? { pattern: `p${call.target}`, path: 'src' }
            : { command, description: 'run' };
    const copied = call.copyOf === undefined ? undefined : texts[call.copyOf];
    const base = copied ?? call.text;
    const text = call.secretInResult ? `${base.slice(0, 400)}${plantSecret(spec.form, spec.token)}${base.slice(400)}` : base;
    texts.push(text);
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: call.name, input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: text, ...(call.isError ? { is_error: true } : {}) }] });
  });
  messages.push({ role: 'user', content: 'Go on.' });
  return utf8(JSON.stringify({ model: 'claude-test', max_tokens: 100, messages }));
}

/** The index of a body the generators made (they always index). */
export function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(`generated body does not index: ${outcome.reason}`);
  return outcome.index;
}

/** What a labelled epoch latched on `body` would hold. */
export interface LabelledEpoch {
  readonly plan: PlannedBlock[];
  readonly labels: BlockLabel[];
  readonly blocks: FrozenBlock[];
  readonly ledger: LedgerRow[];
}

/** The plan, the local labels, and the frozen blocks and ledger they give. */
export function labelledEpoch(body: Uint8Array, policy: ElisionPolicy, restoreTool = false): LabelledEpoch {
  const index = mustIndex(body);
  const plan = planElision(body, index, policy, sha256);
  const labels = labelBlocks({ body, index, candidates: plan, sha256, restoreTool });
  return { plan, labels, ...freezeLabelled(plan, labels) };
}

/** How often `needle` occurs in `haystack` (byte-wise, overlapping). */
export function countOccurrences(haystack: Uint8Array, needle: Uint8Array): number {
  let count = 0;
  for (let i = haystack.indexOf(needle[0] ?? 0); i >= 0 && i + needle.length <= haystack.length; i = haystack.indexOf(needle[0] ?? 0, i + 1)) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) count++;
  }
  return count;
}
