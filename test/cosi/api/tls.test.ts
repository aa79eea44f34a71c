// The State API over real TLS, with a throwaway self-signed certificate made for this test.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { credentials, ServerCredentials } from '@grpc/grpc-js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PathResource } from '../../../src/cosi/testing/resources.js';
import { pair, tempDir } from './harness.js';

const run = promisify(execFile);

/** selfSigned makes a P-256 certificate for localhost and 127.0.0.1 with the openssl command. */
async function selfSigned(dir: string) {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  // biome-ignore format: one openssl option per line reads best
  await run('openssl', [
    'req', '-x509', '-nodes', '-days', '1',
    '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-keyout', key, '-out', cert,
    '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  return { key: await readFile(key), cert: await readFile(cert) };
}

describe('State API over TLS', () => {
  it('serves create, get and watch to a client that trusts the certificate', async () => {
    const tmp = await tempDir();
    onTestFinished(tmp.remove);
    const { key, cert } = await selfSigned(tmp.dir);
    const p = await pair({
      credentials: ServerCredentials.createSsl(null, [{ private_key: key, cert_chain: cert }], false),
      channelCredentials: credentials.createSsl(cert),
      // its certificate names localhost: the client sends that, not the IP it dials, as the TLS server name
      serverName: 'localhost',
    });
    onTestFinished(p.close);

    const w = await p.remote.watchKind({ namespace: 'default', type: PathResource.type });
    const r = PathResource.new('default', 'secure');
    await p.remote.create(r);
    expect(r.metadata.version).toBe(1);
    expect((await p.remote.get(r.metadata)).metadata.id).toBe('secure');
    const first = await w[Symbol.asyncIterator]().next();
    expect(first.value).toMatchObject({ type: 'created' });
    w.close();
  });
});
