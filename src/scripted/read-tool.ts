/**
 * Claude Code's Read tool as the scripted client runs it, measured on the real clients offline
 * (docs/shed.md, "Reading a span back"): each line as `<number>\t<line>` from `offset` (1-based,
 * default 1) for at most `limit` lines (default all). A range whose text counts over the client's
 * cap of 25,000 tokens (the API's count; the scripted API's is 4 bytes a token) is cut after the
 * last whole line within about 88,000 characters: 2.1.332 says nothing, 2.1.197 opens with a
 * `<system-reminder>` naming the lines shown and the offset of the next page. A line longer than
 * that is cut inside. 2.1.197 also answers a second Read of an unchanged file and range with a
 * one-line notice instead of the text; 2.1.332 sends the text again.
 */

/** The client's cap on one Read, in tokens of the API's count. */
export const READ_CAP_TOKENS = 25_000;
/** Where a Read over the cap is cut, in characters of its answer (2.1.332: 88,920 of a 1,581-line file, at 1,268 lines). */
export const READ_CUT_CHARS = 88_000;
/** Bytes a scripted token (src/scripted/cache-pricing.ts counts 4). */
const BYTES_PER_TOKEN = 4;

/** Which client's Read: `current` (2.1.332) cuts silently, `older` (2.1.197) says where it stopped. */
export type ReadStyle = 'current' | 'older';

/** What the model passed to Read. */
export interface ReadInput {
  readonly offset?: number;
  readonly limit?: number;
}

/** 2.1.197's answer to a Read of a file and range it answered before, unchanged. */
export const UNCHANGED_READ = 'Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.';

/** The text of a Read of `text` (a file's contents) with `input`, as `style`'s client answers it. */
export function readAsClaudeCode(text: string, input: ReadInput, style: ReadStyle): string {
  const lines = text.split('\n');
  const first = Math.max(1, Math.floor(input.offset ?? 1));
  const last = Math.min(lines.length, input.limit === undefined ? lines.length : first + Math.max(1, Math.floor(input.limit)) - 1);
  const numbered = lines.slice(first - 1, last).map((line, i) => `${first + i}\t${line}`);
  const whole = numbered.join('\n');
  if (Buffer.byteLength(whole) / BYTES_PER_TOKEN <= READ_CAP_TOKENS) return whole;
  const shown: string[] = [];
  let size = 0;
  for (const line of numbered) {
    if (size + line.length + 1 > READ_CUT_CHARS) break;
    shown.push(line);
    size += line.length + 1;
  }
  // A single line over the cut is cut inside.
  if (shown.length === 0) shown.push(numbered[0]!.slice(0, READ_CUT_CHARS));
  const page = shown.join('\n');
  if (style === 'current') return page;
  const end = first + shown.length - 1;
  const tokens = Math.round(Buffer.byteLength(whole) / BYTES_PER_TOKEN);
  return (
    `<system-reminder>[Truncated: PARTIAL view — showing lines ${first}-${end} of ${lines.length} total (${tokens} tokens, cap ${READ_CAP_TOKENS}). ` +
    `Call Read with offset=${end + 1} limit=${shown.length} for the next page, or Grep to find a specific section. ` +
    'Do NOT answer from this page alone if the answer may be further in the file.]</system-reminder>\n\n' +
    page
  );
}

/** The lines a Read of `text` with `input` showed: the range asked, less what the cap cut. */
export function linesShown(text: string, input: ReadInput, style: ReadStyle): { readonly first: number; readonly last: number } {
  const answer = readAsClaudeCode(text, input, style);
  const numbers = [...answer.matchAll(/^(\d+)\t/gm)].map((m) => Number(m[1]));
  return { first: numbers[0] ?? 0, last: numbers.at(-1) ?? 0 };
}
