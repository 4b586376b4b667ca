import { isIPv4, isIPv6 } from 'node:net';

/** Allows every Host: `--allow-host '*'`. */
export const ANY_HOST = '*';

/**
 * Whether a request's Host names this server, for the open control API. A DNS-rebinding page
 * reaches 127.0.0.1 under a DNS name it controls, and its requests carry that name as Host. So
 * loopback names and IP literals (v4, bracketed v6) are safe — a rebinding attack always needs a
 * DNS name — and so are the names the user allows. A request without Host (HTTP/1.0) comes from
 * no browser.
 */
export function compileHostCheck(allowedHosts: readonly string[]): (host: string | undefined) => boolean {
  if (allowedHosts.includes(ANY_HOST)) return () => true;
  const allowed = new Set(allowedHosts.map((host) => hostName(host) ?? host.toLowerCase()));
  return (host) => {
    if (host === undefined) return true;
    const name = hostName(host);
    return name !== undefined && (isIPv4(name) || isBracketedIPv6(name) || isLoopbackName(name) || allowed.has(name));
  };
}

/** The Host's name in lower case, without port or trailing dot; a v6 literal keeps its brackets. Undefined: not a Host. */
export function hostName(host: string): string | undefined {
  const text = host.trim().toLowerCase();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1 || !isPort(text.slice(end + 1))) return undefined;
    return text.slice(0, end + 1);
  }
  const colon = text.indexOf(':');
  if (colon !== -1 && !isPort(text.slice(colon))) return undefined;
  const name = colon === -1 ? text : text.slice(0, colon);
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  return bare === '' ? undefined : bare;
}

/** '' or ':' followed by digits. */
function isPort(text: string): boolean {
  return text === '' || /^:\d{1,5}$/.test(text);
}

function isBracketedIPv6(name: string): boolean {
  return name.startsWith('[') && isIPv6(name.slice(1, -1));
}

/** RFC 6761 §6.3: localhost and every name under it resolve to loopback. */
function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
