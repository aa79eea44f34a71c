// k8s.StaticPodServerController: serves every StaticPod as one YAML v1 PodList over HTTP on a free loopback
// port, the kubelet's staticPodURL, and publishes that URL as StaticPodServerStatus. Until the first list
// is built every request gets a 500, so the kubelet never takes "no pods" for the answer. As upstream's.
import YAML from 'yaml';
import { STATIC_POD_SERVER_STATUS_ID, StaticPod, StaticPodServerStatus } from '../../resources/k8s/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { serveOnLoopback } from '../../src/sys/loopback-http.js';

export const STATIC_POD_SERVER_CONTROLLER = 'k8s.StaticPodServerController';

/** podListYAML renders the pods as upstream's podList (kind, items, apiVersion). */
export function podListYAML(pods: readonly Record<string, unknown>[]): string {
  return YAML.stringify({ kind: 'PodList', items: pods, apiVersion: 'v1' });
}

export const StaticPodServerController = defineController({
  name: STATIC_POD_SERVER_CONTROLLER,
  inputs: [input(StaticPod)],
  outputs: [output(StaticPodServerStatus, 'exclusive')],
  async run(rt, { signal, logger }) {
    let list: string | undefined;
    const server = await serveOnLoopback(() =>
      list === undefined ? { status: 500, body: 'Internal Server Error\n' } : { status: 200, body: list },
    );
    try {
      await rt.modify(StaticPodServerStatus, STATIC_POD_SERVER_STATUS_ID, () => ({ url: server.url }), {
        signal,
      });
      const versions = new Map<string, string>();
      for await (const _ of rt.events(signal)) {
        const pods = await rt.list(StaticPod, { signal });
        for (const p of pods) {
          const id = p.metadata.id;
          const version = versionString(p.metadata.version);
          const was = versions.get(id);
          if (was === undefined) logger.info('rendered new static pod', { id });
          else if (was !== version)
            logger.info('rendered updated static pod', { id, old_version: was, new_version: version });
          versions.set(id, version);
        }
        for (const id of [...versions.keys()])
          if (!pods.some((p) => p.metadata.id === id)) {
            logger.info('removed static pod', { id });
            versions.delete(id);
          }
        list = podListYAML(pods.map((p) => p.spec.pod));
        rt.resetBackoff();
      }
    } finally {
      await server.close();
    }
  },
});
