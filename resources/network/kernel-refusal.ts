// KernelRefusals.net.keel.dev: a network spec the kernel refuses (EEXIST, EINVAL …), with its errno, while
// its spec controller backs off and retries. Keel's own type (upstream only logs a refusal): one per
// refused spec, id `<spec kind>/<spec id>` (`link/lm0`, `address/eth0/10.0.0.1/24`), gone once it applies.
import { parseRFC3339 } from '../../src/cosi/resource/output/goyaml/index.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { num, obj, str } from './yaml-read.js';

/** KernelRefusalSpec: which spec, the kernel's answer, and the retries so far. Times are ms since the epoch. */
export interface KernelRefusalSpec {
  /** the refused spec's type (`LinkSpecs.net.talos.dev`) and id (`lm0`) */
  specType: string;
  specID: string;
  /** the symbolic errno (`EINVAL`), or '' for a refusal that is no system call's (the kernel not keeping it) */
  errno: string;
  message: string;
  /** refusals of this version of the spec in a row */
  attempts: number;
  /** the first of them */
  since: number;
  /** when the spec is tried again, unless it changes first */
  nextRetry: number;
}

/** kernelRefusalID is the refusal's id: the spec's kind (`link`) and id. */
export const kernelRefusalID = (kind: string, specID: string): string => `${kind}/${specID}`;

const time = (v: unknown): number => parseRFC3339(str(v)) ?? 0;

export const KernelRefusal = defineResource<KernelRefusalSpec>({
  type: 'KernelRefusals.net.keel.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  // the automatic short alias `krs` is KubernetesRootSecrets' already: these instead
  skipAutomaticAliases: true,
  aliases: ['kernelrefusals', 'kernelrefusal', 'refusals', 'refusal', 'kr'],
  printColumns: [
    { name: 'Errno', jsonPath: '{.errno}' },
    { name: 'Attempts', jsonPath: '{.attempts}' },
    { name: 'Message', jsonPath: '{.message}' },
  ],
  empty: () => ({ specType: '', specID: '', errno: '', message: '', attempts: 0, since: 0, nextRetry: 0 }),
  proto: {
    specType: { no: 1, kind: 'string' },
    specID: { no: 2, kind: 'string' },
    errno: { no: 3, kind: 'string' },
    message: { no: 4, kind: 'string' },
    attempts: { no: 5, kind: 'uint32' },
    since: { no: 6, kind: 'timestamp' },
    nextRetry: { no: 7, kind: 'timestamp' },
  },
  toYAML: (s) => ({
    specType: s.specType,
    specID: s.specID,
    errno: s.errno,
    message: s.message,
    attempts: s.attempts,
    since: new Date(s.since),
    nextRetry: new Date(s.nextRetry),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      specType: str(o.specType),
      specID: str(o.specID),
      errno: str(o.errno),
      message: str(o.message),
      attempts: num(o.attempts),
      since: time(o.since),
      nextRetry: time(o.nextRetry),
    };
  },
});
export type KernelRefusal = ResourceOf<typeof KernelRefusal>;
