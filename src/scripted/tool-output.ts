/** The scripted client's default tool: deterministic output of about a chosen size. */

/**
 * A tool output of about `bytes` bytes, some non-ASCII in it, different every turn.
 * The tests' turn counts are tuned to these exact sizes: change it and they move.
 */
export function toolOutput(turn: number, bytes: number): string {
  const line = `${String(turn).padStart(4, '0')} | const café = "naïve — ✓"; // résumé ${'x'.repeat(20)}\n`;
  return line.repeat(Math.max(1, Math.ceil(bytes / Buffer.byteLength(line)))).slice(0, bytes);
}
