/** The banner as the lines ctxshed wrote before wrapping them (src/cli/wrap-words.ts): a line that starts with two spaces continues the one before. */
export function bannerLinesOf(stderr: string): string[] {
  const lines: string[] = [];
  for (const line of stderr.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('  ') && lines.length > 0) lines[lines.length - 1] = `${lines.at(-1)!} ${line.trimStart()}`;
    else lines.push(line);
  }
  return lines;
}
