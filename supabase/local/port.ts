// A port that something else holds is the commonest first-run failure; it is
// found before anything starts, and said as what to change.
import { createServer } from 'node:net';
import { LocalSetupError } from './data-dir.ts';

/** Throws a LocalSetupError naming `variable` when `port` on `host` cannot be listened on. */
export async function assertPortFree(port: number, variable: string, host = '127.0.0.1'): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new LocalSetupError(`${variable} must be a port number from 1 to 65535, not '${port}'.`);
  }
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new LocalSetupError(`Port ${port} is in use: set ${variable} to another port`));
      else if (error.code === 'EACCES') reject(new LocalSetupError(`Port ${port} needs privileges this user lacks: set ${variable} to a port above 1023`));
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}
