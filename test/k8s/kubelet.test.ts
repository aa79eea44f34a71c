// The local kubelet's API client: the endpoint (cluster CA plus the kubelet's self-signed certificate,
// checked against the node name), the serving certificate read from the cert dir, a pod's JSON read
// leniently, and a list call against a real HTTPS server whose certificate names another node.
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  isUnreachable,
  KubeClient,
  KubeError,
  kubeletEndpoint,
  kubeletPods,
  podOf,
  readKubeletServingCert,
} from '../../src/k8s/index.js';
import { issueCertificate, newCertificateAuthority, profiles } from '../../src/pki/index.js';

describe('kubeletEndpoint', () => {
  it('dials the local kubelet by node name, trusting the cluster CA and its own certificate', () => {
    const base = { nodename: 'cp-1', cert: 'C', key: 'K', ca: 'CA' };
    expect(kubeletEndpoint(base)).toEqual({
      server: 'https://127.0.0.1:10250',
      ca: 'CA',
      cert: 'C',
      key: 'K',
      servername: 'cp-1',
    });
    expect(kubeletEndpoint({ ...base, servingCert: 'SELF\n' }).ca).toBe('CA\nSELF\n');
    expect(
      kubeletEndpoint({ ...base, ca: 'CA\n', servingCert: 'SELF\n', server: 'https://x:1' }),
    ).toMatchObject({
      server: 'https://x:1',
      ca: 'CA\nSELF\n',
    });
  });
});

describe('readKubeletServingCert', () => {
  it('reads kubelet.crt from the cert dir, and nothing when there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-kubelet-pki-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    expect(await readKubeletServingCert(dir)).toBe('');
    writeFileSync(join(dir, 'kubelet.crt'), 'PEM\n');
    expect(await readKubeletServingCert(dir)).toBe('PEM\n');
    await expect(readKubeletServingCert(join(dir, 'kubelet.crt'))).rejects.toThrow(/ENOTDIR/);
  });
});

describe('podOf', () => {
  it('keeps name, namespace, string annotations and status; a missing part reads empty', () => {
    expect(
      podOf({
        metadata: { name: 'p', namespace: 'ns', annotations: { a: 'b', n: 1 } },
        spec: {},
        status: { phase: 'Running' },
      }),
    ).toEqual({ name: 'p', namespace: 'ns', annotations: { a: 'b' }, status: { phase: 'Running' } });
    expect(podOf({})).toEqual({ name: '', namespace: '', annotations: {}, status: {} });
  });
});

describe('kubeletPods', () => {
  it('refuses a kubelet whose certificate names another node; reads no pods as none, and refuses what is no pod list', async () => {
    const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
    const serving = await issueCertificate(ca, { commonName: 'cp-2', dnsNames: ['cp-2'] });
    const client = await issueCertificate(ca, profiles.apiServerKubeletClient());
    let body = '{"items":[{"metadata":{"name":"a","namespace":"b"}},"junk"]}';
    const server = createServer({ cert: serving.crt, key: serving.key }, (_req, res) => res.end(body));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    const at = (nodename: string) =>
      new KubeClient(
        kubeletEndpoint({
          nodename,
          cert: client.crt,
          key: client.key,
          ca: ca.crt,
          server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        }),
      );
    const wrong = at('cp-1');
    onTestFinished(() => wrong.close());
    const e = await kubeletPods(wrong).catch((x: unknown) => x);
    expect(isUnreachable(e)).toBe(true);
    expect((e as Error).message).toMatch(/Hostname\/IP does not match certificate's altnames/);

    const right = at('cp-2');
    onTestFinished(() => right.close());
    expect(await kubeletPods(right)).toEqual([{ name: 'a', namespace: 'b', annotations: {}, status: {} }]);
    // what a kubelet running no pods answers
    body = '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":null}';
    expect(await kubeletPods(right)).toEqual([]);
    body = '[]';
    await expect(kubeletPods(right)).rejects.toThrow(
      new KubeError('status', 'GET /pods/: the kubelet answered something other than a pod list', 200),
    );
  });
});
