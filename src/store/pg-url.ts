/** Postgres store URLs: which strings name one, and how one is shown without its password. */

/** Whether `spec` names a Postgres store (`postgres://` or `postgresql://`). */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(spec);
}

/** The URL with its password (if any) replaced by `***`: the only form ever printed or logged. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL we can parse: show only the scheme, never what might be a password.
    return `${url.split(':')[0] ?? 'postgres'}://…`;
  }
}

/** `text` with every occurrence of `url`'s password replaced, for an error message that may echo it. */
export function scrubPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return text.split(url).join(redactUrl(url));
  }
  const plain = text.split(url).join(redactUrl(url));
  return password.length < 3 ? plain : plain.split(password).join('***');
}
