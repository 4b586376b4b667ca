/**
 * The regression runtime's secrets: the variables a report wrote in place of a secret, filled in from
 * the environment when a regression file runs. Copied beside the emitted files with
 * regression-runtime.ts (it imports this), so it too needs nothing but Node.
 */
import type { Step } from './regression-runtime.js';

/**
 * A "$TOKEN"-style variable the report wrote in place of a secret (contracts/client/secrets.ts):
 * CONTRACT_<NAME> holds its value ("$BASIC_AUTH" is CONTRACT_BASIC_AUTH=<user>:<password>).
 */
const SECRET_VARIABLE = /\$((?:TOKEN|BASIC_AUTH|API_KEY|HEADER)(?:_[A-Z0-9]+)*)(?![A-Za-z0-9_])/g;

/** The value of a secret variable from the environment, as it travels; a clear error when it is not set. */
function secretValue(name: string, token: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const value = name === 'TOKEN' ? token : env[`CONTRACT_${name}`] || undefined;
  if (value === undefined) {
    throw new Error(`this regression was recorded with $${name} in place of a secret, which is never written down: set CONTRACT_${name} to it`);
  }
  return name === 'BASIC_AUTH' ? Buffer.from(value).toString('base64') : value;
}

/** Text with its secret variables filled in from the environment. */
export function withSecrets(text: string, token: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return text.replace(SECRET_VARIABLE, (_whole, name: string) => secretValue(name, token, env));
}

/** The step's path with an API key in its query ("?api_key=%24API_KEY") filled in, encoded. */
export function pathFor(path: string, token: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path
    .replace(/%24(?=(?:TOKEN|BASIC_AUTH|API_KEY|HEADER))/g, '$')
    .replace(SECRET_VARIABLE, (_whole, name: string) => encodeURIComponent(secretValue(name, token, env)));
}

/** The step's headers: `token` as the bearer credentials where the step carried the run's token, secret variables filled in. */
export function headersFor(
  step: Pick<Step, 'headers' | 'runToken'>,
  token: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Readonly<Record<string, string>> {
  let changed = false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.headers)) {
    const bearer = step.runToken && token !== undefined && name.toLowerCase() === 'authorization' && /^bearer /i.test(value);
    headers[name] = bearer ? `Bearer ${token}` : withSecrets(value, token, env);
    changed ||= headers[name] !== value;
  }
  // Unchanged, the recorded object itself: nothing to swap.
  return changed ? headers : step.headers;
}
