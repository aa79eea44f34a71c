// Reading a kubeconfig's current context: the one the node's secrets controller renders, and what is refused.
import { describe, expect, it } from 'vitest';
import { renderKubeconfig } from '../../controllers/secrets/kubernetes.js';
import { KubeError, parseKubeconfig } from '../../src/k8s/index.js';

const rendered = renderKubeconfig({
  cluster: 'demo',
  server: 'https://127.0.0.1:7445',
  caPEM: 'CA PEM\n',
  user: 'admin@demo',
  context: 'admin@demo',
  client: { crt: 'CLIENT CRT\n', key: 'CLIENT KEY\n' },
});

describe('parseKubeconfig', () => {
  it('reads the server, CA and client credentials of the current context', () => {
    expect(parseKubeconfig(rendered)).toEqual({
      server: 'https://127.0.0.1:7445',
      ca: 'CA PEM\n',
      cert: 'CLIENT CRT\n',
      key: 'CLIENT KEY\n',
    });
  });

  it('follows the current context among several', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const text = `
apiVersion: v1
kind: Config
current-context: second
contexts:
  - { name: first, context: { cluster: a, user: u } }
  - { name: second, context: { cluster: b, user: u } }
clusters:
  - { name: a, cluster: { server: 'https://a:6443', certificate-authority-data: ${b64('A')} } }
  - { name: b, cluster: { server: 'https://b:6443', certificate-authority-data: ${b64('B')} } }
users:
  - { name: u, user: { client-certificate-data: ${b64('C')}, client-key-data: ${b64('K')} } }
`;
    expect(parseKubeconfig(text)).toEqual({ server: 'https://b:6443', ca: 'B', cert: 'C', key: 'K' });
  });

  it('refuses what it cannot dial with, naming it', () => {
    expect(() => parseKubeconfig('kind: Config\n')).toThrow('kubeconfig: no current-context');
    expect(() => parseKubeconfig(rendered.replace(/client-key-data: .*/, 'client-key: /etc/key'))).toThrow(
      'client-key-data is missing',
    );
    expect(() => parseKubeconfig(rendered.replace(/current-context: .*/, 'current-context: other'))).toThrow(
      'no context named "other"',
    );
    expect(() => parseKubeconfig('{')).toThrow(KubeError);
    expect(() => parseKubeconfig('{')).toThrow(expect.objectContaining({ code: 'kubeconfig' }));
  });
});
