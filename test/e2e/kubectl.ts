// kubectl (built with the Kubernetes component, on the host) against a QEMU control plane: the admin
// kubeconfig `talosctl kubeconfig` writes. On QEMU's user network its server is moved from the guest's
// address to the host port the guest's 6443 is forwarded from (the API server's certificate names
// 127.0.0.1 too, so the connection is still verified against the cluster CA); on a LAN kubectl runs inside
// the LAN's namespace and dials the node's own address.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { componentDir } from '../etcd/fixtures.js';
import { type InstalledNode, retry, works } from './node.js';

const exec = promisify(execFile);
export const API_SERVER_PORT = 6443;

/** Kubectl runs kubectl with the admin kubeconfig and gives its stdout; it rejects on a non-zero exit. */
export type Kubectl = (...args: string[]) => Promise<string>;

/**
 * adminKubectl writes the admin kubeconfig into `dir` (kubeconfig) and gives kubectl with it: on a LAN
 * run inside its namespace against the node's address, else against the host port forwarded to 6443.
 */
export async function adminKubectl(node: InstalledNode, dir: string): Promise<Kubectl> {
  const path = join(dir, 'kubeconfig');
  works(await node.tc('kubeconfig', path));
  const endpoint = `https://${node.address}:${API_SERVER_PORT}`;
  const config = readFileSync(path, 'utf8');
  if (!config.includes(`server: ${endpoint}`))
    throw new Error(`the kubeconfig names no ${endpoint}:\n${config}`);
  if (!node.via) {
    const host = node.forwarded.get(API_SERVER_PORT);
    if (host === undefined) throw new Error(`the control plane forwards no port to its ${API_SERVER_PORT}`);
    writeFileSync(path, config.replaceAll(endpoint, `https://127.0.0.1:${host}`));
  }
  const [program, ...pre] = (node.via ?? ((argv) => [...argv]))([
    join(componentDir('kubernetes'), 'kubectl'),
  ]);
  const once = async (args: string[]) =>
    (
      await exec(program!, [...pre, '--kubeconfig', path, '--request-timeout', '20s', ...args], {
        timeout: 60_000,
      })
    ).stdout;
  return async (...args) => {
    // an API server starved of CPU (two TCG guests on a small host) can miss a request's deadline; kubectl
    // then says to retry, and a client does: for a while, and only for such an answer
    const deadline = Date.now() + TRANSIENT_MS;
    for (;;) {
      try {
        return await once(args);
      } catch (e) {
        if (!transient(e) || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 2_000));
      }
    }
  };
}

/** how long a call goes on retrying a transient failure */
const TRANSIENT_MS = 3 * 60_000;

/** transient tells a failure the API server may not repeat (a deadline missed, a connection lost). */
export const transient = (e: unknown): boolean =>
  /Client\.Timeout|Please retry|request timed out|TLS handshake timeout|unable to return a response in the time allotted|http2: client connection lost|connection reset by peer/.test(
    String((e as { stderr?: string }).stderr ?? ''),
  );

/** nodeReady waits for the Kubernetes node `name` to report its Ready condition True. */
export const nodeReady = (kubectl: Kubectl, name: string, timeoutMs: number): Promise<void> =>
  retry(
    `node ${name} Ready`,
    async () => {
      const ready = await kubectl(
        'get',
        'node',
        name,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      );
      if (ready !== 'True') throw new Error(`node ${name}: Ready is ${JSON.stringify(ready)}`);
    },
    timeoutMs,
  );
