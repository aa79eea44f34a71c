// The environment every process machined starts inherits (Talos' SetEnvironmentVariables).

/** DEFAULT_PATH includes the CNI plugin directory, since the kubelet finds plugins through PATH. */
export const DEFAULT_PATH = '/usr/bin:/usr/local/sbin:/usr/local/bin:/opt/cni/bin';

/** environmentFromCmdline collects `talos.environment=KEY=value` arguments (repeatable) from a kernel cmdline. */
export function environmentFromCmdline(cmdline: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of cmdline.trim().split(/\s+/)) {
    const m = /^talos\.environment=([^=]+)=(.*)$/.exec(arg);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** applyEnvironment sets PATH and the cmdline variables on process.env. */
export function applyEnvironment(cmdline: string, env: NodeJS.ProcessEnv = process.env): void {
  env.PATH = DEFAULT_PATH;
  Object.assign(env, environmentFromCmdline(cmdline));
}
