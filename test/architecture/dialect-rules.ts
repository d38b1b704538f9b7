/**
 * The dialect seam as a checker over source text (docs/adding-a-dialect.md): nothing in src/
 * outside `src/core/dialects/` asks which API a request is. It asks the request's dialect
 * (`dialectOf(route)`, `dialectOfTarget(path)`, the route's `readsFullness`), whose fields say what
 * differs. Pure, so its test can plant small examples and see each rule fire.
 */
import type { Violation } from './import-rules.js';

/** Where asking which API it is belongs: the dialect records and their registry. */
export const DIALECT_FOLDER = 'src/core/dialects/';

/** A route, API or shape name as a request's API is named. */
const API_NAMES = '(?:messages|count_tokens|responses|chat|anthropic|openai)';
/** A value that holds a request's route, API or error shape, read or compared. */
const HOLDER = '\\b(?:[\\w$]+\\.)*(?:route|api|apiName|endpoint|shape|errorShape|dialect)(?:\\.(?:name|route))?';

const RULES: ReadonlyArray<readonly [RegExp, string]> = [
  // `route === 'responses'`, `api !== 'chat'`, `shape === 'openai'`, and the other way round.
  [new RegExp(`${HOLDER}\\s*[!=]==?\\s*['"\`]${API_NAMES}['"\`]`), 'compares a route or API to a name'],
  [new RegExp(`['"\`]${API_NAMES}['"\`]\\s*[!=]==?\\s*${HOLDER}`), 'compares a route or API to a name'],
  // `const openAi = ...`, `openAi ? a : b`: a flag that says the API is OpenAI's.
  [/\b(?:const|let|var)\s+(?:openAi|isOpenAi|anthropic|isMessages)\b/, 'keeps a flag of which API it is'],
  // `case 'responses':` in a switch over a route or API.
  [new RegExp(`\\bcase\\s+['"\`]${API_NAMES}['"\`]\\s*:`), 'switches on a route or API name'],
  // A table keyed by API name (`Record<ApiName, ...>`): one entry per API is a dialect's field.
  [/\bRecord<\s*(?:ApiName|ModelRoute)\b/, 'keeps a table by API name'],
  // Which API a body is, told from its index's shape: every message an item, an OpenAI index. The
  // dialect gives the reader instead (its `messageFacts`, `calls`).
  [/\.every\(\s*isItemMessage\s*\)|(?<!function\s+)\bisOpenAiIndex\s*\(/, "tells the API from the index's shape"],
];

/** Checks `files` (path relative to the repository to source text); empty when none asks which API it is. */
export function checkDialectSeam(files: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const [file, source] of files) {
    if (!file.startsWith('src/') || file.startsWith(DIALECT_FOLDER)) continue;
    const lines = stripComments(source).split('\n');
    lines.forEach((line, i) => {
      for (const [pattern, rule] of RULES) {
        if (!pattern.test(line)) continue;
        violations.push({ file, rule: `only a dialect ${rule}`, detail: `line ${i + 1}: ${line.trim()}` });
      }
    });
  }
  return violations;
}

/** Comments blanked, line breaks kept (so line numbers hold): a comment may name an API. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}
