// The Kubernetes components' extraArgs keys: each must be a flag name, which the node renders as
// `--<key>=<value>`. Keel's rule (upstream passes keys through, and the component then fails at start
// on `----v` or `--v=2=3`); whether the component knows the flag is not judged here.
import type { V1Alpha1Config } from '../types/v1alpha1/config.js';
import type { RuleContext } from './context.js';

const q = JSON.stringify;

/** the v1alpha1 fields whose keys become a component's command-line flags */
const argFields: readonly {
  path: string;
  args: (c: V1Alpha1Config) => Record<string, unknown> | undefined;
}[] = [
  { path: 'cluster.apiServer.extraArgs', args: (c) => c.cluster?.apiServer?.extraArgs },
  { path: 'cluster.controllerManager.extraArgs', args: (c) => c.cluster?.controllerManager?.extraArgs },
  { path: 'cluster.scheduler.extraArgs', args: (c) => c.cluster?.scheduler?.extraArgs },
  { path: 'cluster.proxy.extraArgs', args: (c) => c.cluster?.proxy?.extraArgs },
  { path: 'machine.kubelet.extraArgs', args: (c) => c.machine?.kubelet?.extraArgs },
];

/** flagNameProblem says why a key cannot be a flag name, or undefined when it can. */
export function flagNameProblem(key: string): string | undefined {
  if (key.trim() === '') return 'a flag name cannot be empty';
  if (key.startsWith('-')) return `write the flag without its leading dashes: ${q(key.replace(/^-+/, ''))}`;
  if (key.includes('=')) return 'a flag name has no "=": the value goes in the value';
  if (/\s/.test(key)) return 'a flag name has no whitespace';
  return undefined;
}

export function validateExtraArgs(c: V1Alpha1Config, ctx: RuleContext): void {
  for (const f of argFields)
    for (const key of Object.keys(f.args(c) ?? {})) {
      const problem = flagNameProblem(key);
      // an empty key has no path of its own: the map it sits in is named instead
      if (problem)
        ctx.error(
          key.trim() ? `${f.path}.${key}` : f.path,
          `extraArgs key ${q(key)} is not a flag name: ${problem}`,
        );
    }
}
