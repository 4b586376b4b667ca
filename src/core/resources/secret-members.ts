/**
 * A JSON text with the value of every secret-named member masked: the names the sign-in reading
 * calls secrets (passwords, tokens of every kind). One rule for what serve's journal and control
 * API show and for what verify's reports show of an answer.
 */
import { isSecretProperty } from './sign-in.js';

/** What stands for a credential: the kind stays visible (the header, parameter or scheme name), the value never. */
export const MASK = '***';

/** What every secret name has in it: a body without it is left as it is, unscanned. */
const SECRET_HINT = /pass|secret|token|jwt/i;

/** A JSON member `"name": "value"`, or one cut short at the end of a body the journal kept only the start of. */
const STRING_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/g;

/**
 * A body with the value of every password- and token-like member masked (a sign-up's password, a
 * log-in's token): the names the sign-in reading calls secrets. Text, not parsed JSON, so a body
 * the journal cut short is masked too.
 */
export function maskBody(text: string): string {
  if (!SECRET_HINT.test(text)) return text;
  return text.replace(STRING_MEMBER, (member, name: string, colon: string) => (isSecretProperty(name) ? `"${name}"${colon}"${MASK}"` : member));
}
