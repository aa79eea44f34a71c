// A kubeconfig on disk whose credentials are files, laid out as the kubelet writes its own after TLS
// bootstrap: absent until then, its one PEM file serving as certificate and key, relative paths resolved
// against the kubeconfig's directory, and embedded data left as it is.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeError, pemBlocks, readKubeconfigFile } from '../../src/k8s/index.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-kubeconfig-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const b64 = (s: string) => Buffer.from(s).toString('base64');
const CERT = '-----BEGIN CERTIFICATE-----\nQ0VSVA==\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN EC PRIVATE KEY-----\nS0VZ\n-----END EC PRIVATE KEY-----\n';
const CA = '-----BEGIN CERTIFICATE-----\nQ0E=\n-----END CERTIFICATE-----\n';

const kubeconfig = (cluster: string, user: string) => `apiVersion: v1
kind: Config
clusters:
- name: default-cluster
  cluster:
    server: https://127.0.0.1:7445
${cluster}
contexts:
- name: default-context
  context: { cluster: default-cluster, user: default-auth, namespace: default }
current-context: default-context
users:
- name: default-auth
  user:
${user}
`;

describe('readKubeconfigFile', () => {
  it('is null while the kubeconfig does not exist', async () => {
    expect(await readKubeconfigFile(join(dir, 'absent', 'kubeconfig-kubelet'))).toBeNull();
  });

  it('reads the kubelet’s layout: CA embedded, certificate and key from one file named twice', async () => {
    mkdirSync(join(dir, 'kubelet', 'pki'), { recursive: true });
    const pem = join(dir, 'kubelet', 'pki', 'kubelet-client-current.pem');
    writeFileSync(pem, CERT + KEY);
    const path = join(dir, 'kubelet', 'kubeconfig-kubelet');
    writeFileSync(
      path,
      kubeconfig(
        `    certificate-authority-data: ${b64(CA)}`,
        `    client-certificate: ${pem}\n    client-key: ${pem}`,
      ),
    );
    expect(await readKubeconfigFile(path)).toEqual({
      server: 'https://127.0.0.1:7445',
      ca: CA,
      cert: CERT,
      key: KEY,
    });
  });

  it('resolves relative paths against the kubeconfig’s directory, the CA included', async () => {
    mkdirSync(join(dir, 'rel', 'pki'), { recursive: true });
    writeFileSync(join(dir, 'rel', 'pki', 'ca.crt'), CA);
    writeFileSync(join(dir, 'rel', 'pki', 'client.crt'), CERT);
    writeFileSync(join(dir, 'rel', 'pki', 'client.key'), KEY);
    const path = join(dir, 'rel', 'kubeconfig');
    writeFileSync(
      path,
      kubeconfig(
        '    certificate-authority: pki/ca.crt',
        '    client-certificate: pki/client.crt\n    client-key: pki/client.key',
      ),
    );
    expect(await readKubeconfigFile(path)).toMatchObject({ ca: CA, cert: CERT, key: KEY });
  });

  it('names a missing credentials file', async () => {
    const path = join(dir, 'missing-kubeconfig');
    writeFileSync(
      path,
      kubeconfig(
        `    certificate-authority-data: ${b64(CA)}`,
        `    client-certificate: ${join(dir, 'nope.pem')}\n    client-key-data: ${b64(KEY)}`,
      ),
    );
    const err = await readKubeconfigFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect((err as KubeError).code).toBe('kubeconfig');
    expect((err as Error).message).toContain(`client-certificate ${join(dir, 'nope.pem')}`);
  });
});

describe('pemBlocks', () => {
  it('keeps the blocks of one kind, a bare text as it is', () => {
    expect(pemBlocks(CERT + KEY, 'CERTIFICATE')).toBe(CERT);
    expect(pemBlocks(KEY + CERT, 'PRIVATE KEY')).toBe(KEY);
    expect(pemBlocks('not pem', 'CERTIFICATE')).toBe('not pem');
  });
});
