/**
 * A log-out's cases, each with a session of its own. A log-out ends the session of the token it
 * carries: sent with the run's token, its first valid case would end the run's session and every
 * later case would meet a false 401 (docs/verify.md, "Sign-in by evidence"). So each request of the
 * log-out operation that carries the run's token carries a new one instead, from a log-in of its
 * own (RunSession.renew), or is not sent when none can be had; a case about credentials (none, or
 * altered) is sent as it is. The request
 * recorded in the report is the case's own, with "$TOKEN": the new token is put in on the wire only,
 * and taken out of the answer if the answer says it back.
 */
import { UnsendableRequestError, type HttpClient } from '../client/http-client.js';
import { SECRET_VARIABLE } from '../client/secrets.js';
import { carriesToken, revealedHeaders, sendWithToken } from './token-swap.js';
import type { RunSession } from './sign-in.js';

export function ownSessionClient(client: HttpClient, session: RunSession, secrets: ReadonlyMap<string, string>): HttpClient {
  return {
    ...client,
    async send(request, overrides) {
      const revealed = revealedHeaders(request, secrets);
      if (!carriesToken(revealed, session.token)) return client.send(request, overrides);
      const token = await session.renew(client);
      // No session to be had (the log-in now refuses): not sent, as it would end the run's own session.
      if (token === undefined || token === '')
        throw new UnsendableRequestError(`${request.label}: no session of its own could be had for it, and it would end the run's`);
      return sendWithToken(client, request, overrides, revealed, session.token, token);
    },
  };
}

/**
 * A log-out's client where the run cannot get a session of its own (it was given its credentials:
 * --token, --auth): a request carrying them is not sent, since it would end the session every
 * later case needs. Cases about credentials (none, or altered) carry no variable and are sent.
 */
export function sessionSparingClient(client: HttpClient): HttpClient {
  return {
    ...client,
    send(request, overrides) {
      const carries = Object.values(request.headers).some((value) => value.includes('$') && new RegExp(SECRET_VARIABLE.source).test(value));
      if (carries) throw new UnsendableRequestError(`${request.label}: a log-out with the run's own credentials would end the session every later case needs`);
      return client.send(request, overrides);
    },
  };
}
