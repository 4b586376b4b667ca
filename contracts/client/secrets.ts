/**
 * Secrets stay out of everything the suite writes by construction: a case carries a shell
 * variable ("$TOKEN", "$API_KEY", "$BASIC_AUTH", "$HEADER_X_TENANT_KEY") where a credential goes,
 * and only the HTTP client puts the value in, on the wire. Reports, curl lines and regression files
 * see the variable, which the shell (or CONTRACT_<VARIABLE> in a regression test) fills in again.
 */

export interface Secret {
  /** The variable's name without "$", e.g. "TOKEN". */
  readonly variable: string;
  /** What the client sends in its place (for BASIC_AUTH, the base64 of "user:password"). */
  readonly value: string;
}

/** A variable the suite writes in place of a secret: "$TOKEN", "$API_KEY_PARTNER", … (a name followed by a letter is not one). */
export const SECRET_VARIABLE = /\$((?:TOKEN|BASIC_AUTH|API_KEY|HEADER)(?:_[A-Z0-9]+)*)(?![A-Za-z0-9_])/g;

/** "$NAME" for a variable. */
export function placeholder(variable: string): string {
  return `$${variable}`;
}

/** A variable name from any text: "X-Tenant-Key" → "X_TENANT_KEY". */
export function variableName(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Text with every known secret variable replaced by its value (unknown ones stay as written). */
export function revealText(text: string, secrets: ReadonlyMap<string, string>): string {
  if (!text.includes('$')) return text;
  return text.replace(SECRET_VARIABLE, (whole, name: string) => secrets.get(name) ?? whole);
}

/** A URL with secret variables filled in, whether written as "$NAME" or percent-encoded ("%24NAME"). */
export function revealUrl(url: string, secrets: ReadonlyMap<string, string>): string {
  if (!url.includes('%24') && !url.includes('$')) return url;
  const decoded = url.replace(/%24(?=(?:TOKEN|BASIC_AUTH|API_KEY|HEADER))/g, '$');
  return decoded.replace(SECRET_VARIABLE, (whole, name: string) => {
    const value = secrets.get(name);
    return value === undefined ? whole.replace('$', '%24') : encodeURIComponent(value);
  });
}

/**
 * Headers with secret variables filled in (the same object when there is nothing to fill), for one
 * client, remembering the values it filled in: a run sends the same few
 * credential values ("Bearer $TOKEN") thousands of times, and a regular expression per header was
 * 1% of the run. The memory is bounded; past it, values are filled in as they come.
 */
export function headerRevealer(secrets: ReadonlyMap<string, string>): (headers: Readonly<Record<string, string>>) => Readonly<Record<string, string>> {
  if (secrets.size === 0) return (headers) => headers;
  const filled = new Map<string, string>();
  const reveal = (value: string): string => {
    if (!value.includes('$')) return value;
    let revealed = filled.get(value);
    if (revealed === undefined) {
      revealed = revealText(value, secrets);
      if (filled.size < MAX_REMEMBERED) filled.set(value, revealed);
    }
    return revealed;
  };
  return (headers) => {
    let changed = false;
    const result: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const revealed = reveal(value);
      changed ||= revealed !== value;
      result[name] = revealed;
    }
    return changed ? result : headers;
  };
}

const MAX_REMEMBERED = 1024;

export function secretMap(secrets: readonly Secret[]): ReadonlyMap<string, string> {
  return new Map(secrets.map((secret) => [secret.variable, secret.value]));
}

/**
 * Answers with every secret value written as its variable: a target may say a credential back (a
 * GET /user that answers the token it was sent), and answers reach findings. Values shorter than 6
 * characters are left alone (too likely to be ordinary text).
 */
export function bodyConcealer(secrets: ReadonlyMap<string, string>): (body: string) => string {
  const known = [...secrets].filter(([, value]) => value.length >= 6);
  if (known.length === 0) return (body) => body;
  return (body) => {
    let concealed = body;
    for (const [variable, value] of known) if (concealed.includes(value)) concealed = concealed.split(value).join(placeholder(variable));
    return concealed;
  };
}
