// A kubeconfig on disk whose credentials may be files rather than embedded data, as the kubelet writes its
// own after TLS bootstrap (`client-certificate` and `client-key` both naming kubelet-client-current.pem,
// which holds the certificate and the key). Relative paths are the kubeconfig's directory's, as client-go
// resolves them.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import YAML from 'yaml';
import { KubeError } from './errors.js';
import { type KubeEndpoint, parseKubeconfig } from './kubeconfig.js';

/** the fields that may name a file, and the embedded field each one becomes */
const FILE_FIELDS = [
  ['clusters', 'cluster', 'certificate-authority'],
  ['users', 'user', 'client-certificate'],
  ['users', 'user', 'client-key'],
] as const;

/**
 * readKubeconfigFile reads the kubeconfig at `path` with the files it names; null while the kubeconfig
 * itself does not exist yet (the kubelet writes it once bootstrapped).
 */
export async function readKubeconfigFile(
  path: string,
  { signal }: { signal?: AbortSignal | undefined } = {},
): Promise<KubeEndpoint | null> {
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', ...(signal ? { signal } : {}) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new KubeError('kubeconfig', `reading ${path}: ${(e as Error).message}`, undefined, undefined, {
      cause: e,
    });
  }
  const endpoint = parseKubeconfig(
    await inlineFiles(text, dirname(path), (p) =>
      readFile(p, { encoding: 'utf8', ...(signal ? { signal } : {}) }),
    ),
  );
  return {
    ...endpoint,
    cert: pemBlocks(endpoint.cert, 'CERTIFICATE'),
    key: pemBlocks(endpoint.key, 'PRIVATE KEY'),
  };
}

/** inlineFiles replaces each file reference with its content as `*-data`, so parseKubeconfig reads it. */
export async function inlineFiles(
  text: string,
  dir: string,
  read: (path: string) => Promise<string>,
): Promise<string> {
  const doc = YAML.parse(text) as Record<string, unknown> | null;
  if (!doc || typeof doc !== 'object') return text;
  for (const [list, body, field] of FILE_FIELDS) {
    for (const entry of Array.isArray(doc[list]) ? (doc[list] as Record<string, unknown>[]) : []) {
      const b = entry?.[body] as Record<string, unknown> | undefined;
      const file = b?.[field];
      if (!b || typeof file !== 'string' || !file || b[`${field}-data`]) continue;
      const at = isAbsolute(file) ? file : join(dir, file);
      let content: string;
      try {
        content = await read(at);
      } catch (e) {
        throw new KubeError(
          'kubeconfig',
          `kubeconfig: ${field} ${at}: ${(e as Error).message}`,
          undefined,
          undefined,
          {
            cause: e,
          },
        );
      }
      b[`${field}-data`] = Buffer.from(content).toString('base64');
      delete b[field];
    }
  }
  return YAML.stringify(doc);
}

/**
 * pemBlocks keeps the blocks whose label ends with `label` (`PRIVATE KEY` matches `EC PRIVATE KEY`): the
 * kubelet's one file serves as both certificate and key.
 */
export function pemBlocks(pem: string, label: string): string {
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----\n?/g)];
  const kept = blocks
    .filter((m) => m[1]!.endsWith(label))
    .map((m) => (m[0].endsWith('\n') ? m[0] : `${m[0]}\n`));
  return kept.length > 0 ? kept.join('') : pem;
}
