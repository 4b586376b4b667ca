import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../log/logger.js';
import { answerClientError, answerConnect, trackResponse } from './socket-answer.js';

/** The node:http server around a request handler: its timeouts, and the answers Node gives no response object for. */
export function createListener(handler: (request: IncomingMessage, response: ServerResponse) => void, requestTimeoutMs: number, logger: Logger): Server {
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(requestTimeoutMs, 60_000),
      // Node looks for overdue requests only this often (30 s by default), so a 10 s limit would
      // let a half-sent request hang for up to 40 s.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
      keepAliveTimeout: 5_000,
      // Node's own refusal has no body; the pipeline answers with an Error instead.
      requireHostHeader: false,
    },
    (request, response) => {
      trackResponse(request, response);
      handler(request, response);
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, logger));
  server.on('connect', (request: IncomingMessage, socket: Socket) => answerConnect(request, socket, logger));
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use; pick another with --port`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      );
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive connections would hold close() open; idle ones go now, busy ones when they finish.
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  });
}
