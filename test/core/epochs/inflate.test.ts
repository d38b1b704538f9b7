import { describe, expect, it } from 'vitest';
import { applyInflate, findStubs, restoredContent } from '../../../src/core/epochs/inflate.js';
import { encodeJsonString } from '../../../src/core/json-string.js';
import { freezeBlock, planElision } from '../../../src/core/plan-elision.js';
import { rewriteRequest } from '../../../src/core/epochs/tool-results/tool-results.js';
import { renderStub } from '../../../src/core/stub.js';
import { conversation, filler, fromUtf8, mustIndex, plain, replaceNth, sha256, utf8 } from '../bodies.js';

const DIR = '/state/elided';
const ELIDE_ALL = { keepRecent: 0, minBytes: 0 };

function rewritten(body: Uint8Array) {
  const plan = planElision(body, mustIndex(body), ELIDE_ALL, sha256);
  const outcome = rewriteRequest(body, plan.map(freezeBlock), { elidedDir: DIR, sha256 });
  if (outcome.kind !== 'applied') throw new Error(outcome.reason);
  return { plan, output: outcome.body };
}

describe('findStubs', () => {
  it('should find each stub with its ordinal, its span and what it says', () => {
    // Arrange
    const { plan, output } = rewritten(conversation([filler(1500), 'short', [{ type: 'text', text: 'x' }]]));

    // Act
    const found = findStubs(output, mustIndex(output));

    // Assert
    const index = mustIndex(output);
    expect(found.map((f) => f.ordinal)).toEqual([0, 1, 2]);
    expect(found.map((f) => [f.start, f.end])).toEqual(index.toolResults.map((t) => [t.content.start, t.content.end]));
    expect(found.map((f) => f.stub)).toEqual([
      { bytes: 1500, sha256: plan[0]!.sha256 },
      { bytes: 5, sha256: plan[1]!.sha256 },
      { bytes: 1, sha256: plan[2]!.sha256, rawSha256: plan[2]!.rawSha256 },
    ]);
  });

  it('should ignore ordinary content, block content and text that only starts like a stub', () => {
    // Arrange
    const stub = renderStub({ ordinal: 0, toolUseId: 't', bytes: 9, sha256: 'a'.repeat(64), jsonBytes: 11, jsonSha256: 'b'.repeat(64) }, DIR);
    const body = conversation(['plain', [{ type: 'text', text: stub }], `${stub} and more`, stub]);

    // Act
    const found = findStubs(body, mustIndex(body));

    // Assert
    expect(found.map((f) => f.ordinal)).toEqual([3]);
  });

  it('should find nothing in a body without stubs', () => {
    // Arrange
    const body = conversation([filler(3000)]);

    // Act
    const found = findStubs(body, mustIndex(body));

    // Assert
    expect(found).toEqual([]);
  });
});

describe('restoredContent', () => {
  it('should give the canonical JSON string of the text when the stub names no raw file', () => {
    // Arrange
    const text = utf8('line 1\n"two"\t\u0001 é');

    // Act
    const content = restoredContent({ bytes: text.length, sha256: sha256(text) }, text, undefined);

    // Assert
    expect(content).toEqual(encodeJsonString(text));
    expect(fromUtf8(content)).toBe(JSON.stringify('line 1\n"two"\t\u0001 é'));
  });

  it('should give the raw bytes when the stub names a raw file', () => {
    // Arrange
    const raw = utf8('[{"type":"text","text":"a"}]');

    // Act
    const content = restoredContent({ bytes: 1, sha256: sha256(utf8('a')), rawSha256: sha256(raw) }, utf8('a'), raw);

    // Assert
    expect(content).toEqual(raw);
  });
});

describe('applyInflate', () => {
  it('should rebuild the original bytes of canonical, escaped and block content', () => {
    // Arrange
    const original = replaceNth(
      conversation([
        `${filler(1500)}/`,
        `${filler(1500, 1)}é`,
        [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        '"q"\n',
      ]),
      '/"',
      '\\/"',
    );
    const { plan, output } = rewritten(original);
    const found = findStubs(output, mustIndex(output));

    // Act
    const inflated = applyInflate(
      output,
      found.map((f, k) => ({ found: f, content: restoredContent(f.stub, plan[k]!.text, plan[k]!.raw) })),
    );

    // Assert
    expect(plan.map((b) => b.rawSha256 !== undefined)).toEqual([true, false, true, false]);
    expect(plain(inflated)).toEqual(original);
  });

  it('should give back a copy of the body when there is nothing to restore', () => {
    // Arrange
    const body = conversation(['x']);

    // Act
    const inflated = applyInflate(body, []);

    // Assert
    expect(plain(inflated)).toEqual(body);
  });

  it('should refuse stubs that overlap', () => {
    // Arrange
    const { output } = rewritten(conversation([filler(1500)]));
    const [found] = findStubs(output, mustIndex(output));
    const restored = { found: found!, content: utf8('"x"') };

    // Act
    const act = () => applyInflate(output, [restored, restored]);

    // Assert
    expect(act).toThrow('stubs overlap');
  });
});
