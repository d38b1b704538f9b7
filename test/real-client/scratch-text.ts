/** Deterministic text for the files the real-client runs make the client read. */

/** Numbered lines of about `bytes` bytes, each starting with `prefix`. */
export function linesOf(prefix: string, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n += 1) {
    const line = `${prefix} line ${String(n).padStart(4, '0')}: the quick brown fox jumps over the lazy dog, ${(n * 7919) % 10007}.`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return `${lines.join('\n')}\n`;
}
