import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files.js';
import { checkDialectSeam } from './dialect-rules.js';

describe('the dialect seam of src/', () => {
  it('should ask which API a request is only inside src/core/dialects/', async () => {
    const files = await sourceFiles('src');

    const violations = checkDialectSeam(files);

    expect(files.size).toBeGreaterThan(100);
    expect(violations).toEqual([]);
  });
});

describe('checkDialectSeam', () => {
  const rulesOf = (files: Record<string, string>): string[] => checkDialectSeam(new Map(Object.entries(files))).map((v) => `${v.file}: ${v.rule}`);

  it('should let the dialect records ask, and a JSON key be compared, a comment name an API', () => {
    expect(
      rulesOf({
        'src/core/dialects/responses.ts': "if (route === 'responses') x();",
        'src/core/messages/build-index.ts': "if (key !== 'messages') return;",
        'src/proxy/a.ts': "// was: route === 'responses'\nconst streamed = dialectOf(route).supports.streamedRefusal;",
        'src/core/openai/openai-index.ts': 'export function isOpenAiIndex(index: TranscriptIndex): index is OpenAiIndex {',
        'src/core/epochs/find-span-stubs.ts': 'const content = isItemMessage(message) ? contentString(body, message.start) : undefined;',
        'src/core/shed/plan-span.ts': 'const facts = options.readFacts(body, index);',
      }),
    ).toEqual([]);
  });

  it('should fail on each planted question of which API a request is', () => {
    expect(
      rulesOf({
        'src/proxy/overflow-retry.ts': "return prepared.route === 'responses' ? a : b;",
        'src/rescue/request-meta.ts': "const openAi = route === 'responses' || route === 'chat';",
        'src/report/tally.ts': "const measured = 'messages' === record.route;",
        'src/proxy/api-error.ts': "return shape === 'openai' ? x : y;",
        'src/core/openai/x.ts': "if (api !== 'responses') return false;",
        'src/proxy/usage-tap.ts': 'const READERS: Readonly<Record<ApiName, R>> = {};',
        'src/proxy/s.ts': "switch (route) {\n  case 'chat':\n}",
        'src/core/shed/message-facts.ts': 'const items = index.messages.length > 0 && index.messages.every(isItemMessage);',
        'src/core/epochs/x.ts': 'if (isOpenAiIndex(index)) return readOpenAiCalls(body, index);',
        'src/rescue/y.ts': 'const items = !index.messages.every( isItemMessage );',
        'src/core/shed/gate-input.ts': "if (!messages.every(isItemMessage)) return messages.filter((m) => m.role === 'assistant').length;",
      }),
    ).toEqual([
      'src/proxy/overflow-retry.ts: only a dialect compares a route or API to a name',
      'src/rescue/request-meta.ts: only a dialect compares a route or API to a name',
      'src/rescue/request-meta.ts: only a dialect keeps a flag of which API it is',
      'src/report/tally.ts: only a dialect compares a route or API to a name',
      'src/proxy/api-error.ts: only a dialect compares a route or API to a name',
      'src/core/openai/x.ts: only a dialect compares a route or API to a name',
      'src/proxy/usage-tap.ts: only a dialect keeps a table by API name',
      'src/proxy/s.ts: only a dialect switches on a route or API name',
      "src/core/shed/message-facts.ts: only a dialect tells the API from the index's shape",
      "src/core/epochs/x.ts: only a dialect tells the API from the index's shape",
      "src/rescue/y.ts: only a dialect tells the API from the index's shape",
      "src/core/shed/gate-input.ts: only a dialect tells the API from the index's shape",
    ]);
  });
});
