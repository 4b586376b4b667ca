// @ts-check
import http from 'node:http';

/**
 * One `POST /plants` on a fresh connection (no agent: each bench request pays its own connect, as a
 * first request does), read to its end. The start-up and first-Prefer benches send it.
 * @param {string} host @param {number} port @param {string} body @param {Record<string, string>} [headers]
 * @returns {Promise<{ status: number, ms: number }>}
 */
export function postPlant(host, port, body, headers = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host,
        port,
        method: 'POST',
        path: '/plants',
        agent: false,
        headers: { authorization: 'Bearer bench-token', 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
