import { createServer, type AddressInfo } from 'node:net';

/** A free loopback port: bound, read, released; for a server started as a process that cannot report the port it chose. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
