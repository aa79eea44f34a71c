// Whether `make run` can forward a loopback port: checked before anything is built, so a busy port fails
// at once rather than when QEMU refuses it after a long image build. Plain JavaScript, because it runs
// before `npm ci` has installed tsx.
//   node scripts/lib/port-free.mjs PORT [VARIABLE]   exits 1 with a message naming VARIABLE= (default
//   PORT=) when 127.0.0.1:PORT is taken
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

const HOST = '127.0.0.1';

/**
 * bindError binds host:port for a moment, as QEMU's host forward will, and returns why that failed
 * (an errno code such as EADDRINUSE), or undefined when the port is free.
 * @param {number} port
 * @returns {Promise<string | undefined>}
 */
export function bindError(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', (/** @type {NodeJS.ErrnoException} */ e) => resolve(e.code ?? e.message));
    s.listen({ port, host: HOST, exclusive: true }, () => s.close(() => resolve(undefined)));
  });
}

/**
 * portProblem is the message `make run` stops with when it cannot have host port `port`, else undefined;
 * it names the make variable that picks the port.
 * @param {number} port
 * @param {string} [variable]
 * @returns {Promise<string | undefined>}
 */
export async function portProblem(port, variable = 'PORT') {
  const error = await bindError(port);
  if (error === undefined) return undefined;
  const what = error === 'EADDRINUSE' ? 'is in use' : `cannot be bound (${error})`;
  return `run: ${HOST}:${port} ${what}; pick another with make run ${variable}=${await nearbyFreePort(port)}`;
}

/**
 * nearbyFreePort is the first free port after `port`, so the suggestion stays close to what was asked.
 * @param {number} port
 * @returns {Promise<number>}
 */
async function nearbyFreePort(port) {
  for (let p = port + 1; p <= Math.min(port + 100, 65535); p++)
    if ((await bindError(p)) === undefined) return p;
  return 50000;
}

/**
 * parsePort reads a TCP port number, or undefined when `text` is not one.
 * @param {string | undefined} text
 * @returns {number | undefined}
 */
export function parsePort(text) {
  const port = Number(text);
  return /^\d+$/.test(text ?? '') && port >= 1 && port <= 65535 ? port : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const variable = process.argv[3] ?? 'PORT';
  const port = parsePort(process.argv[2]);
  if (port === undefined) {
    process.stderr.write(`run: ${variable}=${process.argv[2] ?? ''}: not a TCP port (1-65535)\n`);
    process.exit(2);
  }
  const problem = await portProblem(port, variable);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
