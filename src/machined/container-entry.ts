// Entry of container mode: `--state-dir DIR [--api-address HOST:PORT] [--trustd-address HOST:PORT]
// [--config FILE] [--components DIR] [--kubernetes DIR] [--hostname NAME]`.
import { parseArgs } from 'node:util';
import { DEFAULT_CONTAINER_API_ADDRESS, runContainerNode } from './container.js';

const { values } = parseArgs({
  options: {
    'state-dir': { type: 'string' },
    'api-address': { type: 'string', default: DEFAULT_CONTAINER_API_ADDRESS },
    'trustd-address': { type: 'string' },
    config: { type: 'string' },
    components: { type: 'string' },
    kubernetes: { type: 'string' },
    hostname: { type: 'string' },
  },
  strict: true,
});
const stateDir = values['state-dir'];
if (!stateDir) {
  process.stderr.write(
    'usage: container-entry --state-dir DIR [--api-address HOST:PORT] [--trustd-address HOST:PORT] [--config FILE] [--components DIR] [--kubernetes DIR] [--hostname NAME]\n',
  );
  process.exit(2);
}

runContainerNode({
  stateDir,
  apiAddress: values['api-address'] ?? DEFAULT_CONTAINER_API_ADDRESS,
  ...(values['trustd-address'] ? { trustdAddress: values['trustd-address'] } : {}),
  ...(values.config ? { configPath: values.config } : {}),
  ...(values.components ? { componentsRoot: values.components } : {}),
  ...(values.kubernetes ? { kubernetesRoot: values.kubernetes } : {}),
  ...(values.hostname ? { hostname: values.hostname } : {}),
}).then(
  (action) => {
    process.stdout.write(`[machined] ${action}: container node stopped\n`, () => process.exit(0));
  },
  (e: unknown) => {
    process.stderr.write(
      `[machined] container node failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exit(1);
  },
);
