/**
 * A request sent with another token of the run's user in place of the run's own, on the wire only:
 * the case and its report keep "$TOKEN", and where the answer says the new token back it is written
 * "$TOKEN" there too. For the session a log-out's cases get (own-session.ts) and the renewed one of
 * a long run (session-keeper.ts).
 */
import type { HttpClient } from '../client/http-client.js';
import { placeholder, revealText } from '../client/secrets.js';
import type { ReceivedResponse, SentRequest } from '../report.js';

export type RevealedHeaders = ReadonlyArray<readonly [string, string]>;

/** The request's headers with the run's secrets filled in, as they go on the wire. */
export function revealedHeaders(request: SentRequest, secrets: ReadonlyMap<string, string>): RevealedHeaders {
  return Object.entries(request.headers).map(([name, value]) => [name, revealText(value, secrets)] as const);
}

export function carriesToken(headers: RevealedHeaders, token: string): boolean {
  return headers.some(([, value]) => value.includes(token));
}

/** `request` sent with `token` wherever its revealed headers carry `runToken`. */
export async function sendWithToken(
  client: HttpClient,
  request: SentRequest,
  overrides: Parameters<HttpClient['send']>[1],
  headers: RevealedHeaders,
  runToken: string,
  token: string,
): Promise<ReceivedResponse> {
  const swapped = Object.fromEntries(headers.map(([name, value]) => [name, value.split(runToken).join(token)]));
  const response = await client.send({ ...request, headers: swapped }, overrides);
  // A token this short could be part of any text: the answer is left as it is.
  return token.length < 6 || !response.body.includes(token) ? response : { ...response, body: response.body.split(token).join(placeholder('TOKEN')) };
}
