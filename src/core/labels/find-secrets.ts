/**
 * Secrets in a block's text, found on this machine (docs/labels.md "Secrets"). Two kinds:
 * `certain` ones (an auth header's value, a literal after a key/token/secret/password name, a
 * private key block, a secret-named NAME=value line, a known token format, a URL's password)
 * make the block local at once; the others (long key-like runs, email addresses) are only
 * redacted, and a block with more than two of them is treated as holding a secret too.
 *
 * Every pattern either starts at a boundary or has bounded repeats, so a long run of letters
 * costs one pass, not one pass per starting position.
 */
import { isPlaceholderValue, isSecretValue, isTokenLike } from './secret-value.js';

/** What a finding is. */
export type SecretKind = 'private-key' | 'auth-header' | 'key-field' | 'env-line' | 'known-token' | 'url-password' | 'key-run' | 'email';

/** One secret: the UTF-16 range of the text to hide (the value, not the name before it). */
export interface SecretFinding {
  readonly kind: SecretKind;
  readonly start: number;
  readonly end: number;
  readonly certain: boolean;
}

/** A key-like run must be at least this long (characters). */
export const KEY_RUN_MIN_CHARS = 40;
/**
 * ...and at most this much of it made of words, long digit runs and separators. Paths and long
 * identifiers are 0.78 to 1; random base64 averages 0.2 and passes 0.6 in 0.2% of 40-character
 * samples. (Entropy does not tell them apart: a long path has as many distinct characters as a
 * key.)
 */
export const KEY_RUN_MAX_STRUCTURE = 0.6;

interface Pattern {
  readonly kind: SecretKind;
  readonly certain: boolean;
  readonly regex: RegExp;
  /** The group holding the value to hide (0: the whole match) and whether it counts. */
  readonly value: (m: RegExpExecArray) => { readonly group: number; readonly ok: boolean } | undefined;
}

const NAME_CHARS = 'A-Za-z0-9_.-';
const SECRET_NAME =
  'api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|' +
  'client[_-]?secret|secret|token|passw(?:or)?d|passphrase|pwd|credentials?|auth';

const PATTERNS: readonly Pattern[] = [
  {
    kind: 'private-key',
    certain: true,
    // Only private keys (a certificate or public key is not a secret), and only with a body:
    // code that looks for the BEGIN line (`pem.startsWith("-----BEGIN PRIVATE KEY-----")`) holds
    // no key. `\n` as two characters: a key inside a JSON file (a service account's).
    regex: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?=(?:\s|\\n)+(?:Proc-Type:|[A-Za-z0-9+/]{16}))[\s\S]*?(?:-----END \1-----|$)/g,
    value: () => ({ group: 0, ok: true }),
  },
  {
    kind: 'auth-header',
    certain: true,
    regex: /\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)/gi,
    value: (m) => ({ group: 1, ok: isTokenLike(m[1] ?? '') }),
  },
  {
    kind: 'auth-header',
    certain: true,
    // `Basic` is a common word ("basic JavaScript types"); its credential is base64 of user:pass.
    regex: /\bbasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi,
    value: (m) => ({ group: 1, ok: isBasicCredential(m[1] ?? '') }),
  },
  {
    kind: 'auth-header',
    certain: true,
    regex: /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+\s+)?([A-Za-z0-9._~+/=:-]{8,})/gi,
    value: (m) => ({ group: 1, ok: isTokenLike(m[1] ?? '') }),
  },
  {
    kind: 'key-field',
    certain: true,
    regex: new RegExp(
      `(?<![${NAME_CHARS}])[${NAME_CHARS}]{0,40}?(?:${SECRET_NAME})["']?\\s*(?:=>|[:=])\\s*` +
        `(?:"([^"\\\\\\n]{1,256})"|'([^'\\\\\\n]{1,256})'|([A-Za-z0-9._~+/=@:%!*#^&-]{1,256}))`,
      'gi',
    ),
    value: (m) => {
      if (m[1] !== undefined) return { group: 1, ok: isSecretValue(m[1], true) };
      if (m[2] !== undefined) return { group: 2, ok: isSecretValue(m[2], true) };
      return { group: 3, ok: isSecretValue(m[3] ?? '', false) };
    },
  },
  {
    kind: 'env-line',
    certain: true,
    // A NAME=value line whose name is secret-sounding, one `_`-separated word at a time:
    // AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, DB_PASS, but not TOKENIZERS_PARALLELISM or PATH.
    regex:
      /^[ \t]*(?:export[ \t]+)?(?:[A-Z0-9]+_)*(?:API_?KEY|ACCESS_?KEY|KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|AUTH|CREDENTIALS?|COOKIE|SESSION|SIGNATURE|SALT|DSN)(?:_[A-Z0-9]+)*[ \t]*=[ \t]*(["']?)([^\s"']{4,512})\1[ \t]*$/gm,
    value: (m) => ({ group: 2, ok: isEnvSecret(m[2] ?? '') }),
  },
  {
    kind: 'known-token',
    certain: true,
    regex: new RegExp(
      [
        'sk-ant-[A-Za-z0-9_-]{20,}',
        'sk-(?:proj-|svcacct-)?(?=[A-Za-z0-9_-]*\\d)[A-Za-z0-9_-]{20,}',
        'gh[pousr]_[A-Za-z0-9]{30,}',
        'github_pat_[A-Za-z0-9_]{40,}',
        'xox[abprs]-[A-Za-z0-9-]{10,}',
        '(?:AKIA|ASIA)[0-9A-Z]{16}',
        'AIza[0-9A-Za-z_-]{35}',
        '[sr]k_(?:live|test)_[0-9A-Za-z]{16,}',
        'npm_[A-Za-z0-9]{36}',
        'glpat-[A-Za-z0-9_-]{20,}',
        'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
      ]
        .map((p) => `(?<![A-Za-z0-9_-])${p}`)
        .join('|'),
      'g',
    ),
    value: () => ({ group: 0, ok: true }),
  },
  {
    kind: 'url-password',
    certain: true,
    // From `://` on: the scheme adds nothing, and text glued to it (`xpostgres://`) hides its start.
    regex: /:\/\/[^\s/:@]{1,256}:([^\s/@]{1,256})@/g,
    value: (m) => ({ group: 1, ok: !isPlaceholderValue(m[1] ?? '') && (m[1] ?? '').length >= 4 && m[1] !== 'pass' }),
  },
  {
    kind: 'key-run',
    certain: false,
    regex: /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{40,}/g,
    value: (m) => ({ group: 0, ok: isKeyRun(m[0]) }),
  },
  {
    kind: 'email',
    certain: false,
    regex: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g,
    value: (m) => ({ group: 0, ok: isPersonalAddress(m[0]) }),
  },
];

/** Every secret in the text, ordered by where it starts. Pure and deterministic. */
export function findSecrets(text: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const pattern of PATTERNS) {
    // A fresh regex per call (no shared lastIndex); `d` gives each group's offsets.
    const regex = new RegExp(pattern.regex.source, `${pattern.regex.flags}d`);
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      if (m[0].length === 0) regex.lastIndex++;
      const value = pattern.value(m);
      if (value === undefined || !value.ok) continue;
      const span = groupSpan(m, value.group);
      if (span !== undefined) found.push({ kind: pattern.kind, certain: pattern.certain, ...span });
    }
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

function groupSpan(m: RegExpExecArray, group: number): { start: number; end: number } | undefined {
  const span = m.indices?.[group];
  return span === undefined ? undefined : { start: span[0], end: span[1] };
}

/** Whether the text is base64 of `user:password` (what an HTTP Basic credential is). */
function isBasicCredential(value: string): boolean {
  const decoded = decodeBase64(value);
  return decoded !== undefined && /^[\x21-\x7e]+:[\x20-\x7e]+$/.test(decoded);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 to Latin-1 text, or `undefined` when it is not well-formed base64. */
function decodeBase64(value: string): string | undefined {
  const body = value.replace(/=+$/, '');
  if (value.length % 4 !== 0 || body.length % 4 === 1) return undefined;
  let bits = 0;
  let count = 0;
  let out = '';
  for (const c of body) {
    const v = BASE64.indexOf(c);
    if (v < 0) return undefined;
    bits = (bits << 6) | v;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += String.fromCharCode((bits >> count) & 0xff);
    }
  }
  return out;
}

function isEnvSecret(value: string): boolean {
  return !isPlaceholderValue(value) && !/^[\d.,:+-]+$/.test(value) && !/^(?:\/|~\/|\.\.?\/)/.test(value) && !/^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value);
}

/**
 * A run of 40+ key characters that is random enough to be a key: not hex (sha256 and git
 * hashes, ctxshed's own stubs), not a subresource-integrity hash, mixing at least two of lower
 * case, upper case and digits, and not mostly words (paths, identifiers).
 */
const STRUCTURE = /[A-Z]?[a-z]{3,}|(?<=^|[/_.+=-])[A-Z0-9]{2,}(?=$|[/_.+=-])|\d{4,}|[0-9a-f]{7,}|[/_.+=-]/g;

function isKeyRun(run: string): boolean {
  if (/^sha(?:1|256|384|512)-/.test(run)) return false;
  if (/^[0-9a-fA-F_-]+=*$/.test(run)) return false;
  const classes = Number(/[a-z]/.test(run)) + Number(/[A-Z]/.test(run)) + Number(/\d/.test(run));
  return classes >= 2 && structureOf(run) < KEY_RUN_MAX_STRUCTURE;
}

/**
 * The fraction of the run made of words (a capital and 3+ lower case, or an upper-case word
 * between separators as in CONSTANT_NAMES), 4+ digit runs, 7+ hex runs (a commit in a URL) and
 * separators.
 */
export function structureOf(run: string): number {
  let structured = 0;
  for (const m of run.matchAll(STRUCTURE)) structured += m[0].length;
  return run.length === 0 ? 0 : structured / run.length;
}

// Addresses nobody owns or reads: a git remote's user, reserved example domains (RFC 2606),
// and the noreply addresses of commit trailers (Claude Code signs its commits with one).
function isPersonalAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  if (local === 'git' || /no-?reply/.test(local) || /no-?reply/.test(domain)) return false;
  return !/(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/.test(domain);
}
