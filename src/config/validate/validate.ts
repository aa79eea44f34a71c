// Runs every rule over a Config and sorts the findings into warnings and errors.
import { type Config, v1alpha1Of } from '../container.js';
import { type ConfigDocument, label, lineOf, V1ALPHA1 } from '../document.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import { definitionOf } from '../types/registry.js';
import { validateCluster } from './cluster.js';
import type { Mode, RuleContext } from './context.js';
import { crossRules } from './cross.js';
import { validateExtraArgs } from './extra-args.js';
import { validateKubernetesVersions } from './kubernetes-version.js';
import { effectiveType, validateMachine } from './machine.js';

export interface ValidateOptions {
  readonly mode: Mode;
  /** strict turns every warning into an error, as `talosctl validate --strict` */
  readonly strict?: boolean;
}

export interface ValidationResult {
  readonly warnings: readonly ConfigError[];
  readonly errors: readonly ConfigError[];
}

/** validate checks each document and the rules across them; it never throws. */
export function validate(cfg: Config, opts: ValidateOptions): ValidationResult {
  const warnings: ConfigError[] = [];
  const errors: ConfigError[] = [];
  const machineType = effectiveType(v1alpha1Of(cfg)?.machine?.type);
  const contextFor = (doc: ConfigDocument): RuleContext => {
    const name = label(doc);
    const at = (path: string) => lineOf(doc.lines, path);
    return {
      mode: opts.mode,
      machineType,
      error: (path, msg) => errors.push(new ConfigError('invalid', name, path, at(path), msg)),
      // strict mode reports a warning as an error that still says it was one, as upstream does
      warn: (path, msg) =>
        opts.strict
          ? errors.push(new ConfigError('invalid', name, path, at(path), `warning: ${msg}`))
          : warnings.push(new ConfigError('warning', name, path, at(path), msg)),
    };
  };
  for (const doc of cfg.documents) {
    const ctx = contextFor(doc);
    if (doc.kind === V1ALPHA1) validateV1Alpha1(doc as ConfigDocument<'v1alpha1'>, ctx);
    else definitionOf(doc.kind)?.validate(doc.spec, ctx);
  }
  for (const issue of crossRules(cfg, { mode: opts.mode })) {
    const doc = cfg.documents.find((d) => label(d) === issue.document);
    const line = doc ? lineOf(doc.lines, issue.path) : undefined;
    errors.push(new ConfigError('invalid', issue.document, issue.path, line, issue.message));
  }
  return { warnings, errors };
}

function validateV1Alpha1(doc: ConfigDocument<'v1alpha1'>, ctx: RuleContext): void {
  const c = doc.spec;
  if (c.version !== 'v1alpha1')
    ctx.error('version', `invalid config version ${JSON.stringify(c.version ?? '')}, expected "v1alpha1"`);
  if (c.persist === false) ctx.error('persist', '.persist should be enabled');
  if (!c.machine) ctx.error('machine', 'machine instructions are required');
  else validateMachine(c.machine, ctx);
  if (!c.cluster) ctx.error('cluster', 'cluster instructions are required');
  else validateCluster(c.cluster, ctx);
  // across both sections: the kubelet's image and arguments sit under machine, the control plane's under cluster
  validateKubernetesVersions(c, ctx);
  validateExtraArgs(c, ctx);
  // KubeSpan finds its peers through discovery, so one without the other cannot work
  if (c.machine?.network?.kubespan?.enabled) {
    if (!c.cluster?.discovery?.enabled)
      ctx.error(
        'machine.network.kubespan.enabled',
        '.cluster.discovery should be enabled when .machine.network.kubespan is enabled',
      );
    // KubeSpan derives its keys and peer identity from the cluster id and secret
    for (const k of ['id', 'secret'] as const)
      if (!c.cluster?.[k])
        ctx.error(
          'machine.network.kubespan.enabled',
          `.cluster.${k} should be set when .machine.network.kubespan is enabled`,
        );
  }
}

/** assertValid throws ConfigErrors when validation finds errors, and returns the warnings. */
export function assertValid(cfg: Config, opts: ValidateOptions): readonly ConfigError[] {
  const { warnings, errors } = validate(cfg, opts);
  if (errors.length > 0) throw new ConfigErrors(errors);
  return warnings;
}
