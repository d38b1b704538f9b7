import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freezeSpan, planShed } from '../../src/core/shed/plan-span.js';
import { applyEpochs } from '../../src/core/epochs/apply.js';
import { indexTranscript } from '../../src/core/messages/transcript-index.js';
import { renderStub } from '../../src/core/stub.js';
import { SPAN_STUB_PREFIX } from '../../src/core/shed/span-stub.js';
import { SPANS } from '../../src/core/epochs/spans/spans.js';
import type { TranscriptIndex } from '../../src/core/transcript-index-types.js';
import { readMessagesFacts } from '../../src/core/shed/message-facts.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { latchEpoch } from '../../src/state/latch-epoch.js';
import { sha256Hex } from '../../src/state/sha256-hex.js';
import { writeSpanFiles } from '../support/span-files.js';
import { SMALL_RECENT_TOKENS, bodyOf, session } from '../core/shed/shed-bodies.js';
import { appendEpochPlan, keyOf, recordOf, shedEpochOf, useStateDir } from './fixtures/state-fixtures.js';
import { blocksOf } from '../../src/core/epoch-items.js';

const dirs = useStateDir();

/** A shed body of a 12-turn session, with its span's files written and its epoch recorded. */
async function shedBody(): Promise<{ original: Uint8Array; shed: Uint8Array; sha: string }> {
  const original = bodyOf(session(12));
  const plan = planShed(original, [], { readFacts: readMessagesFacts, sha256: sha256Hex, recentTokens: SMALL_RECENT_TOKENS });
  if (plan.kind !== 'planned') throw new Error(plan.reason);
  await writeSpanFiles(dirs.state, plan.span.sha256, plan.span.text);
  const key = keyOf('shed');
  await latchEpoch(dirs.state, key, () => ({ record: recordOf(key, [shedEpochOf(1, freezeSpan(plan.span))]), originals: [] }));
  const out = applyEpochs(SPANS, original, [freezeSpan(plan.span)], { spansDir: dirs.state.spansDir, sha256: sha256Hex });
  if (out.kind !== 'applied') throw new Error(out.reason);
  return { original, shed: out.body, sha: plan.span.sha256 };
}

function mustIndex(body: Uint8Array): TranscriptIndex {
  const outcome = indexTranscript(body);
  if (outcome.kind !== 'indexed') throw new Error(outcome.detail);
  return outcome.index;
}

/** A Messages body whose tool results (ids toolu_0, toolu_1, ...) hold `contents`. */
function toolResultsBody(contents: readonly string[]): Uint8Array {
  const messages = contents.flatMap((content, i) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/f${i}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content }] },
  ]);
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'go' }, ...messages] }));
}

describe('inflateFromState', () => {
  it('should rebuild a shed body byte for byte from spans/<sha256>.json', async () => {
    const { original, shed } = await shedBody();

    const inflated = await inflateFromState(dirs.state, shed);

    expect(Buffer.from(inflated.body).equals(Buffer.from(original))).toBe(true);
    expect(inflated).toMatchObject({ spans: 1, stubs: 0 });
  });

  it('should refuse a span file that is missing or no longer matches its name', async () => {
    const { shed, sha } = await shedBody();
    const file = path.join(dirs.state.spansDir, `${sha}.json`);

    await fs.writeFile(file, 'changed');
    await expect(inflateFromState(dirs.state, shed)).rejects.toThrow(/does not match its sha256 name/);
    await fs.unlink(file);
    await expect(inflateFromState(dirs.state, shed)).rejects.toThrow(/cannot read span file .*ENOENT/);
  });

  it('should put back only the stubs the records say ctxshed wrote, never text of the client that reads like one', async () => {
    // Arrange: the epoch froze toolu_0's result; toolu_1's result is the same stub text, which the
    // client itself holds (an agent that read a captured request), and no record names.
    const original = 'the original output of the first tool call';
    const key = keyOf('rescue');
    const plan = appendEpochPlan(key, undefined, original, 0);
    await latchEpoch(dirs.state, key, () => plan);
    const stub = renderStub(blocksOf(plan.record.epochs[0]!)[0]!, dirs.state.elidedDir);
    const body = toolResultsBody([stub, stub]);

    // Act
    const inflated = await inflateFromState(dirs.state, body);

    // Assert
    expect(Buffer.from(inflated.body).toString()).toBe(Buffer.from(toolResultsBody([original, stub])).toString());
    expect(inflated.stubs).toBe(1);
  });

  it('should leave every stub alone where no record names it', async () => {
    // Arrange: the elided file is there, but no conversation record froze the block.
    const { shed } = await shedBody();
    await fs.rm(dirs.state.conversationsDir, { recursive: true });
    await fs.mkdir(dirs.state.conversationsDir);

    // Act
    const inflated = await inflateFromState(dirs.state, shed);

    // Assert
    expect(inflated).toEqual({ body: shed, stubs: 0, spans: 0, thinking: 0 });
  });

  it("should put a span back once: a later copy of its stub message is the client's", async () => {
    // Arrange
    const { original, shed } = await shedBody();
    const text = Buffer.from(shed).toString();
    const stubMessage = JSON.stringify(
      JSON.parse(text).messages.find((m: { content: unknown }) => typeof m.content === 'string' && m.content.startsWith(SPAN_STUB_PREFIX)),
    );
    // The copy goes last in `messages`, just before its closing bracket.
    const withCopy = (body: string): string => {
      const index = mustIndex(Buffer.from(body));
      const at = Buffer.from(body)
        .subarray(0, index.messagesSpan.end - 1)
        .toString().length;
      return `${body.slice(0, at)},${stubMessage}${body.slice(at)}`;
    };
    expect(withCopy(text)).not.toBe(text);

    // Act
    const inflated = await inflateFromState(dirs.state, Buffer.from(withCopy(text)));

    // Assert
    expect(Buffer.from(inflated.body).toString()).toBe(withCopy(Buffer.from(original).toString()));
    expect(inflated.spans).toBe(1);
  });

  it("should leave a stub message that names a shed span with another size: it is the client's text", async () => {
    // Arrange: the client's own copy of the stub, its size changed by one.
    const { shed } = await shedBody();
    const text = Buffer.from(shed).toString();
    const bytesField = /(\d+) bytes/.exec(text);
    expect(bytesField).not.toBeNull();
    const forged = text.replace(`${bytesField![1]} bytes`, `${Number(bytesField![1]) + 1} bytes`);
    expect(forged).not.toBe(text);

    // Act
    const inflated = await inflateFromState(dirs.state, Buffer.from(forged));

    // Assert
    expect(Buffer.from(inflated.body).toString()).toBe(forged);
    expect(inflated.spans).toBe(0);
  });

  it('should give back a body without stubs unchanged, and refuse one that is no request', async () => {
    const body = bodyOf(session(3));

    expect(await inflateFromState(dirs.state, body)).toEqual({ body, stubs: 0, spans: 0, thinking: 0 });
    await expect(inflateFromState(dirs.state, Buffer.from('nope'))).rejects.toThrow(/not a Messages API body/);
  });
});
