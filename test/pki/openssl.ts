// Test helper: runs the openssl CLI as an independent checker of what src/pki mints.
// Inputs go through a private temp directory that is removed afterwards.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** openssl runs one command; a non-zero exit is returned, not thrown, so tests can assert on failures. */
export function openssl(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile('openssl', [...args], { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(err);
      else resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
    });
  });
}

/** withFiles writes the given files into a fresh temp directory, runs fn with their paths, then removes it. */
export async function withFiles<K extends string, T>(
  files: Record<K, string>,
  fn: (paths: Record<K, string>) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-pki-'));
  try {
    const paths = {} as Record<K, string>;
    for (const [name, content] of Object.entries(files) as [K, string][]) {
      paths[name] = join(dir, `${name}.pem`);
      await writeFile(paths[name], content, { mode: 0o600 });
    }
    return await fn(paths);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** verifyChain runs `openssl verify -CAfile ca leaf` (plus extra flags such as -purpose). */
export const verifyChain = (ca: string, leaf: string, extra: readonly string[] = []): Promise<Run> =>
  withFiles({ ca, leaf }, (p) => openssl(['verify', ...extra, '-CAfile', p.ca, p.leaf]));

/** x509Text is `openssl x509 -noout -text` of a PEM certificate. */
export const x509Text = async (crt: string): Promise<string> =>
  withFiles({ crt }, async (p) => {
    const r = await openssl(['x509', '-noout', '-text', '-in', p.crt]);
    if (r.code !== 0) throw new Error(`openssl x509 failed: ${r.stderr}`);
    return r.stdout;
  });

/** OpenSSLView is what the -text output says, pulled apart for assertions. */
export interface OpenSSLView {
  readonly text: string;
  readonly subject: string;
  readonly issuer: string;
  readonly publicKeyAlgorithm: string;
  readonly signatureAlgorithm: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** extension name → its value line(s), e.g. `X509v3 Key Usage` → `Digital Signature, Certificate Sign` */
  readonly ext: Record<string, string>;
  /** extension name → whether it is marked critical */
  readonly critical: Record<string, boolean>;
}

export async function inspect(crt: string): Promise<OpenSSLView> {
  const text = await x509Text(crt);
  const line = (re: RegExp) => re.exec(text)?.[1]?.trim() ?? '';
  const ext: Record<string, string> = {};
  const critical: Record<string, boolean> = {};
  const block = /X509v3 extensions:\n([\s\S]*?)\n {4}Signature Algorithm/.exec(text)?.[1] ?? '';
  let current = '';
  for (const l of block.split('\n')) {
    const head = /^ {12}(\S.*?):( critical)?\s*$/.exec(l);
    if (head) {
      current = head[1]!;
      ext[current] = '';
      critical[current] = Boolean(head[2]);
    } else if (current && l.trim()) ext[current] = ext[current] ? `${ext[current]}\n${l.trim()}` : l.trim();
  }
  return {
    text,
    subject: line(/Subject: (.*)/),
    issuer: line(/Issuer: (.*)/),
    publicKeyAlgorithm: line(/Public Key Algorithm: (.*)/),
    signatureAlgorithm: line(/Signature Algorithm: (.*)/),
    notBefore: new Date(line(/Not Before: (.*)/)),
    notAfter: new Date(line(/Not After : (.*)/)),
    ext,
    critical,
  };
}
