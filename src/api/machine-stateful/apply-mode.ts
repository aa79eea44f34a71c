// Which effect an ApplyConfiguration request has, following upstream v1.13: AUTO applies live when only
// live-safe parts of the v1alpha1 document change and reboots otherwise; NO_REBOOT and TRY refuse changes
// that need a reboot; maintenance mode applies everything live.
import { isDeepStrictEqual } from 'node:util';
import { type Config, v1alpha1Of } from '../../config/index.js';
import { ApiError } from '../errors.js';
import type { ApplyEffect } from './deps.js';

export type ApplyMode = 'REBOOT' | 'AUTO' | 'NO_REBOOT' | 'STAGED' | 'TRY';

const LIVE_SAFE_MACHINE = [
  'ca',
  'acceptedCAs',
  'time',
  'certSANs',
  'install',
  'network',
  'sysfs',
  'sysctls',
  'logging',
  'controlPlane',
  'kubelet',
  'kernel',
  'registries',
  'pods',
  'seccompProfiles',
  'nodeLabels',
  'nodeAnnotations',
  'nodeTaints',
];
const LIVE_SAFE_FEATURES = [
  'kubernetesTalosAPIAccess',
  'kubePrism',
  'hostDNS',
  'imageCache',
  'nodeAddressSortAlgorithm',
];

/** rebootRelevant is the v1alpha1 document without the parts that apply live. */
function rebootRelevant(cfg: Config | undefined): unknown {
  const doc = cfg ? (v1alpha1Of(cfg) as Record<string, unknown> | undefined) : undefined;
  if (!doc) return {};
  const { debug: _debug, cluster: _cluster, machine, ...rest } = doc;
  const m = { ...((machine as Record<string, unknown> | undefined) ?? {}) };
  for (const k of LIVE_SAFE_MACHINE) delete m[k];
  if (m.features && typeof m.features === 'object') {
    const f = { ...(m.features as Record<string, unknown>) };
    for (const k of LIVE_SAFE_FEATURES) delete f[k];
    m.features = f;
  }
  return JSON.parse(JSON.stringify({ ...rest, machine: m }));
}

/** liveSafe: typed documents always apply live; the v1alpha1 one only if its other parts are unchanged. */
export const liveSafe = (current: Config | undefined, next: Config): boolean =>
  isDeepStrictEqual(rebootRelevant(current), rebootRelevant(next));

export interface ResolvedMode {
  readonly effect: ApplyEffect;
  /** the mode reported back (AUTO resolves to another) */
  readonly mode: ApplyMode;
  readonly details: string;
}

/** resolveMode decides the effect or throws INVALID_ARGUMENT when the mode cannot take the change. */
export function resolveMode(
  requested: ApplyMode,
  current: Config | undefined,
  next: Config,
  maintenance: boolean,
): ResolvedMode {
  if (maintenance) {
    if (requested === 'STAGED' || requested === 'TRY')
      throw new ApiError('invalid-argument', `apply mode ${requested} is not supported in maintenance mode`);
    return { effect: 'no-reboot', mode: 'NO_REBOOT', details: 'Applied configuration without a reboot' };
  }
  const safe = liveSafe(current, next);
  switch (requested) {
    case 'STAGED':
      return {
        effect: 'staged',
        mode: 'STAGED',
        details: 'Staged configuration to be applied after a reboot',
      };
    case 'REBOOT':
      return { effect: 'reboot', mode: 'REBOOT', details: 'Applied configuration with a reboot' };
    case 'AUTO':
      return safe
        ? { effect: 'no-reboot', mode: 'NO_REBOOT', details: 'Applied configuration without a reboot' }
        : {
            effect: 'reboot',
            mode: 'REBOOT',
            details: 'Applied configuration with a reboot: the change touches fields that cannot apply live',
          };
    case 'NO_REBOOT':
    case 'TRY':
      if (!safe)
        throw new ApiError(
          'invalid-argument',
          `apply mode ${requested}: the change touches fields that need a reboot (use --mode auto or staged)`,
        );
      return requested === 'TRY'
        ? { effect: 'try', mode: 'TRY', details: 'Applied configuration in try mode' }
        : { effect: 'no-reboot', mode: 'NO_REBOOT', details: 'Applied configuration without a reboot' };
  }
}
