/**
 * The run's session kept alive: where the answer that issued the run's token said how long it
 * lasts (`expires_in`), a run longer than that would meet a false 401 on every case after it. So
 * once three quarters of its lifetime have passed, the run logs in again (RunSession.renew, one
 * log-in however many requests wait for it) and sends the new token in the old one's place, on
 * the wire only: cases and reports keep "$TOKEN", and a new token said back in an answer is
 * written as "$TOKEN" there too.
 */
import type { HttpClient } from '../client/http-client.js';
import { carriesToken, revealedHeaders, sendWithToken } from './token-swap.js';
import type { RunSession } from './sign-in.js';

/** Renewed at this share of the lifetime: before it ends, with time for the log-in itself. */
const RENEW_AT = 0.75;

export function keptSessionClient(
  client: HttpClient,
  session: RunSession & { readonly expiresIn: number },
  secrets: ReadonlyMap<string, string>,
  now: () => number = Date.now,
): HttpClient {
  const lifetimeMs = session.expiresIn * 1000;
  let current = { token: session.token, renewAt: now() + lifetimeMs * RENEW_AT };
  let renewing: Promise<void> | undefined;
  const renew = (): Promise<void> =>
    (renewing ??= session
      .renew(client)
      .then((token) => {
        // No new session (the log-in now refuses): the old token is sent, and the target's answer judged.
        if (token !== undefined && token !== '') current = { token, renewAt: now() + lifetimeMs * RENEW_AT };
      })
      .finally(() => (renewing = undefined)));
  return {
    ...client,
    async send(request, overrides) {
      // Until the first renewal, the run's own token is still the one to send: nothing to look at.
      if (current.token === session.token && now() < current.renewAt) return client.send(request, overrides);
      if (!Object.values(request.headers).some((value) => value.includes('$'))) return client.send(request, overrides);
      const revealed = revealedHeaders(request, secrets);
      if (!carriesToken(revealed, session.token)) return client.send(request, overrides);
      if (now() >= current.renewAt) await renew();
      const { token } = current;
      if (token === session.token) return client.send(request, overrides);
      return sendWithToken(client, request, overrides, revealed, session.token, token);
    },
  };
}
