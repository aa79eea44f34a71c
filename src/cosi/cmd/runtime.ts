// cosi runtime: a standalone cosi.resource.State server over in-memory state, for conformance runs.
import { parseArgs } from 'node:util';
import { formatListenAddress, parseListenAddress } from './listen-address.js';
import { startRuntimeServer } from './runtime-server.js';

const USAGE = `usage: runtime [--listen tcp://127.0.0.1:8100 | unix:///path/to.sock | host:port]`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { listen: { type: 'string', default: 'tcp://127.0.0.1:8100' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const srv = await startRuntimeServer(parseListenAddress(values.listen));
  console.log(`cosi state service listening on ${formatListenAddress(srv.address)}`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  console.log(`${signal}: stopping`);
  await srv.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`runtime: ${err instanceof Error ? err.message : String(err)}`);
    console.error(USAGE);
    process.exitCode = 1;
  },
);
