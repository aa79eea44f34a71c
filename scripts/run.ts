// `make run`: boot the ISO in QEMU with the node's API forwarded to 127.0.0.1:<port>, show its console,
// and (with --config) apply a machine config as soon as maintenance mode answers.
//   --config FILE   apply FILE with `keelctl apply-config --insecure`
//   --config gen    generate a single-node config and talosconfig in _out/run first
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startVm } from './lib/qemu.js';

const { values } = parseArgs({
  options: {
    iso: { type: 'string', default: '_out/keel.iso' },
    port: { type: 'string', default: '50000' },
    config: { type: 'string' },
    memory: { type: 'string', default: '2048' },
  },
  strict: true,
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write(`run: --port ${values.port}: not a TCP port\n`);
  process.exit(2);
}
// QEMU's user network always hands the guest this address
const GUEST_IP = '10.0.2.15';
const RUN_DIR = join('_out', 'run');

const keelctl = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`keelctl ${args.join(' ')} failed (exit ${r.status})`);
};

let configFile = values.config;
if (configFile === 'gen') {
  keelctl('gen', 'config', 'keel', `https://${GUEST_IP}:6443`, '--output', RUN_DIR, '--force');
  const talosconfig = join(RUN_DIR, 'talosconfig');
  keelctl('--talosconfig', talosconfig, 'config', 'endpoint', `127.0.0.1:${port}`);
  keelctl('--talosconfig', talosconfig, 'config', 'node', GUEST_IP);
  configFile = join(RUN_DIR, 'controlplane.yaml');
}

const vm = startVm({
  boot: { kind: 'iso', path: values.iso },
  apiPort: port,
  memoryMiB: Number(values.memory),
  onLine: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(
  `run: QEMU pid ${vm.pid}; the node's API is forwarded to 127.0.0.1:${port}; Ctrl-C stops the VM\n`,
);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => vm.kill());

if (configFile) {
  const file = configFile;
  void vm
    .waitForLine(/apply-config --insecure/)
    .then(() => {
      process.stdout.write(`run: maintenance mode reached; applying ${file}\n`);
      keelctl('apply-config', '--insecure', '--nodes', `127.0.0.1:${port}`, '--file', file);
      if (values.config === 'gen')
        process.stdout.write(
          `run: then, e.g.: keelctl --talosconfig ${join(RUN_DIR, 'talosconfig')} get machinestatus\n`,
        );
    })
    .catch((e: unknown) => process.stderr.write(`run: ${(e as Error).message}\n`));
}

const ended = await vm.ended;
process.stdout.write(`run: QEMU exited (${ended.signal ?? `code ${ended.code}`})\n`);
