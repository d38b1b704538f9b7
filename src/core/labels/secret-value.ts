/**
 * Whether a value found after a secret-sounding name is itself secret-shaped. Code names its
 * secrets all the time without holding one (`token = getToken()`, `password: string`,
 * `api_key=os.environ["KEY"]`); only a literal that could be the secret counts.
 */

// Words that stand in for a value rather than being one.
const PLACEHOLDER_WORDS = new Set([
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'string',
  'number',
  'boolean',
  'object',
  'redacted',
  'changeme',
  'password',
  'passwd',
  'secret',
  'token',
  'bearer',
  'basic',
  'example',
  'required',
  'optional',
  'hidden',
  'masked',
  'placeholder',
  'your_token',
  'your_api_key',
  'your-api-key',
  'xxxxxxxx',
]);

/** Whether the value is a stand-in: empty, a template, a mask, a type or a variable's name. */
export function isPlaceholderValue(value: string): boolean {
  if (value.length === 0) return true;
  if (/^[$%<{[*(#&@]/.test(value) || value.includes('${') || value.includes('{{')) return true;
  if (/^(.)\1*$/.test(value)) return true; // ******** or xxxxxxxx
  if (/^(?:your|my|an?|the|some)[-_ ]/i.test(value)) return true;
  return PLACEHOLDER_WORDS.has(value.toLowerCase());
}

/**
 * An unquoted identifier or property path: a variable or a type, not a literal
 * (`getToken`, `options.apiKey`, `Uint8Array`). One with 12+ characters and 2+ digits is let
 * through: that is a generated value more often than a name.
 */
function isIdentifier(value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(value)) return false;
  return value.length < 12 || (value.match(/\d/g)?.length ?? 0) < 2;
}

/**
 * A value that says what it is without digits is a name (`IETFToken = "ietf-token"`,
 * `secret: my-app-secret`, `"your-api-key-here"`), not the secret.
 */
function namesItself(value: string): boolean {
  return !/\d/.test(value) && /token|secret|passw|key|auth/i.test(value);
}

/** Dates, times, versions, counts: digits and separators only. */
function isNumeric(value: string): boolean {
  return /^[\d.,:+-]+$/.test(value);
}

/** A file path or a URL without credentials (those are found by their own pattern). */
function isPathOrUrl(value: string): boolean {
  return /^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value);
}

/**
 * Whether a value after a key, token, secret or password name is a secret: a quoted literal of
 * 6+ characters without spaces, or an unquoted token-like one of 8+ that is not an identifier,
 * and in both cases not a placeholder, number, path or URL.
 */
export function isSecretValue(value: string, quoted: boolean): boolean {
  if (isPlaceholderValue(value) || isNumeric(value) || isPathOrUrl(value)) return false;
  if (namesItself(value)) return false;
  if (quoted) return value.length >= 6 && !/\s/.test(value);
  if (value.length < 8 || isIdentifier(value)) return false;
  return isTokenLike(value);
}

/**
 * Whether a credential-position value (after `Bearer`, `Authorization:`) looks like a token
 * rather than a word: 8+ characters mixing letters and digits, or 16+ mixing cases.
 */
export function isTokenLike(value: string): boolean {
  if (value.length < 8 || isPlaceholderValue(value)) return false;
  if (/\d/.test(value) && /[A-Za-z]/.test(value)) return true;
  return value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value.slice(1));
}
