/** Narrows a request's Accept-Encoding to what the usage tap can decompress. */

/**
 * Content codings Node 20's zlib decodes (RFC 9110 §8.4.1; `x-gzip` is gzip by §8.4.1.3).
 * zstd is missing: Node 20 has no zstd decoder.
 */
export const DECODABLE_ENCODINGS: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'identity']);

/**
 * The Accept-Encoding value to send upstream: the client's members whose coding is decodable,
 * each kept verbatim (q-values included), in order. `*` with q > 0 is dropped (it would admit
 * zstd); `*;q=0` is kept (it only narrows). When nothing acceptable is left, or the client sent
 * none (RFC 9110 §12.5.3: no header means any coding), the answer is `identity`, which every
 * client accepts.
 */
export function rewriteAcceptEncoding(value: string | readonly string[] | undefined): string {
  const joined = value === undefined ? '' : typeof value === 'string' ? value : value.join(',');
  const kept: string[] = [];
  let acceptable = false;
  for (const member of joined.split(',')) {
    const text = member.trim();
    if (text === '') continue;
    const [codingPart = '', ...params] = text.split(';');
    const coding = codingPart.trim().toLowerCase();
    const q = qValue(params);
    if (coding === '*') {
      if (q === 0) kept.push(text);
      continue;
    }
    if (!DECODABLE_ENCODINGS.has(coding)) continue;
    kept.push(text);
    if (q > 0) acceptable = true;
  }
  return acceptable ? kept.join(', ') : 'identity';
}

/** RFC 9110 §12.4.2 weight; a missing or malformed one counts as 1 (lenient, like browsers). */
function qValue(params: readonly string[]): number {
  for (const param of params) {
    const [name = '', raw = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(raw.trim());
    return raw.trim() === '' || !Number.isFinite(q) ? 1 : q;
  }
  return 1;
}
