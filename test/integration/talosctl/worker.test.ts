// Workers join: a control plane and a worker of one cluster as two container nodes on loopback. The
// worker holds no CA key; its apid certificate comes from the control plane's trustd for the machine
// token, after which the stock talosctl reaches it over mutual TLS with the admin talosconfig.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { standardKeyLabel } from '../../../src/pki/index.js';
import { callUnary, errorOf, serviceClient, tlsOnly } from '../../api/fixtures.js';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { killTalosctls, talosctl, talosctlPath, works } from './talosctl.js';

let bin: string;
let dir: string;
let talosconfig: string;
let cp: NodeProcess;
let worker: NodeProcess;
let pem: { ca: string; crt: string; key: string };

const at = (node: NodeProcess, ...args: string[]) =>
  talosctl(bin, ['-e', node.address, '-n', '127.0.0.1', ...args], { talosconfig, cwd: dir });

const prism = async () =>
  JSON.stringify({ machine: { features: { kubePrism: { port: await freePort() } } } });

beforeAll(async () => {
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-workers-'));
  // talosctl's own configs for one cluster; each node's KubePrism on a free port, as both share the host
  works(
    await talosctl(
      bin,
      [
        'gen',
        'config',
        'keel-workers',
        'https://127.0.0.1:6443',
        '-o',
        dir,
        '--config-patch-control-plane',
        await prism(),
        '--config-patch-worker',
        await prism(),
      ],
      { cwd: dir },
    ),
  );
  talosconfig = join(dir, 'talosconfig');
  const ctx = Object.values(
    (parseYaml(readFileSync(talosconfig, 'utf8')) as { contexts: Record<string, Record<string, string>> })
      .contexts,
  )[0]!;
  const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  pem = { ca: unb64(ctx.ca!), crt: unb64(ctx.crt!), key: standardKeyLabel(unb64(ctx.key!)) };
  // both nodes know trustd's (free) port: the control plane listens on it, the worker asks the cluster
  // endpoint's host (127.0.0.1) on it
  const trustd = ['--trustd-address', `127.0.0.1:${await freePort()}`];
  // the worker first: it must wait for a control plane, calmly
  worker = await spawnNode(tempStateDir(), await freePort(), [
    '--config',
    join(dir, 'worker.yaml'),
    '--hostname',
    'worker-1',
    ...trustd,
  ]);
  await worker.waitForLine(/no control plane signed the apid certificate yet/);
  cp = await spawnNode(tempStateDir(), await freePort(), [
    '--config',
    join(dir, 'controlplane.yaml'),
    '--hostname',
    'cp-1',
    ...trustd,
  ]);
  await cp.waitForLine(/node running/);
  await worker.waitForLine(/api: serving with mutual TLS/);
  await worker.waitForLine(/node running/);
}, 5 * 60_000);

afterAll(async () => {
  killTalosctls();
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('a worker joins through trustd', () => {
  it('talosctl version and get machinestatus work on the worker with the admin talosconfig', async () => {
    expect(works(await at(worker, 'version'))).toMatch(
      /Server:\n\tNODE:\s+127\.0\.0\.1\n\tTag:\s+v1\.13\.0\+keel/,
    );
    expect(works(await at(worker, 'get', 'machinestatus'))).toMatch(
      /MachineStatus\s+machine\s+\d+\s+running\s+true/,
    );
    expect(works(await at(worker, 'get', 'machinetype'))).toMatch(/\sworker\n/);
  });

  it('serves a certificate the OS CA signed through trustd: serverAuth only, no role, the worker’s name', async () => {
    const port = Number(worker.address.split(':')[1]);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const s = connect({
        host: '127.0.0.1',
        port,
        ca: pem.ca,
        cert: pem.crt,
        key: pem.key,
        ALPNProtocols: ['h2'],
        servername: 'worker-1',
      });
      s.once('secureConnect', () => {
        resolve(s.getPeerCertificate().raw);
        s.destroy();
      });
      s.once('error', reject);
    });
    const crt = new X509Certificate(raw);
    const ca = new X509Certificate(pem.ca);
    expect(crt.checkIssued(ca) && crt.verify(ca.publicKey)).toBe(true);
    expect(crt.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(crt.subject).toBe('CN=worker-1');
    expect(crt.subjectAltName).toContain('IP Address:127.0.0.1');
    // the control plane's trustd logged the request it signed
    expect(works(await at(cp, 'logs', 'trustd'))).toMatch(
      /signed a CSR from 127\.0\.0\.1:\d+: subject CN=worker-1/,
    );
  });

  it('is mutual TLS: a caller without a client certificate gets nothing', async () => {
    const c = serviceClient('machine.MachineService', worker.address, tlsOnly(pem.ca));
    try {
      const e = await errorOf(callUnary(c, 'Version', {}));
      expect(e.code).toBe(status.UNAVAILABLE);
    } finally {
      c.close();
    }
  });

  it('runs trustd on the control plane only', async () => {
    expect(works(await at(cp, 'services'))).toMatch(/127\.0\.0\.1\s+trustd\s+Running\s+OK/);
    const services = works(await at(worker, 'services'));
    expect(services).toMatch(/127\.0\.0\.1\s+apid\s+Running\s+OK/);
    expect(services).not.toContain('trustd');
  });
});
