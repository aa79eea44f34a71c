// Another node's facts, read through its API as upstream's checks read every node: its ServiceList,
// EtcdMemberList, Version and Memory, and its COSI state (the EPHEMERAL volume, the machine status, the
// static pod statuses), each call made with this node's own client certificate on the caller's behalf (as
// apid forwards calls).
import { Metadata } from '@grpc/grpc-js';
import YAML from 'yaml';
import { VolumeStatus } from '../../../resources/block/volume-status.js';
import { MACHINE_STATUS_ID, MachineStatus, stageOf } from '../../../resources/runtime/machine-status.js';
import { ROLE_METADATA_KEY } from '../auth/roles.js';
import type { ApiMessage } from '../handlers.js';
import { loadApiProto, serviceOf } from '../proto.js';
import type { Forwarder } from '../routing/forwarder.js';
import { PROXY_FROM_KEY } from '../routing/targets.js';
import { EPHEMERAL_VOLUME_ID, type NodeFacts, STATIC_POD_STATUSES } from './node-facts.js';

type PeerService = 'machine.MachineService' | 'cosi.resource.State';

/** PeerCaller calls the Talos API on another node and decodes the reply: one message, or a stream's. */
export interface PeerCaller {
  call(
    node: string,
    service: PeerService,
    method: string,
    request: ApiMessage,
    signal: AbortSignal,
  ): Promise<ApiMessage>;
  stream(
    node: string,
    service: PeerService,
    method: string,
    request: ApiMessage,
    signal: AbortSignal,
  ): Promise<ApiMessage[]>;
}

/**
 * peerCaller encodes with the checked-in protos and sends through the forwarder. The call is marked as
 * proxied (`proxyfrom`), so the other node serves it itself, with the caller's roles (`talos-role`), which
 * it trusts from this node's impersonator certificate.
 */
export function peerCaller(
  forwarder: Forwarder,
  opts: { self: string; roles: ReadonlySet<string> },
): PeerCaller {
  const proto = loadApiProto();
  const methodOf = (service: PeerService, method: string) => {
    const def = serviceOf(proto, service)[method];
    if (!def) throw new Error(`${service}/${method} is not in the protos`);
    return def;
  };
  const metadata = () => {
    const md = new Metadata();
    md.set(PROXY_FROM_KEY, opts.self);
    for (const r of opts.roles) md.add(ROLE_METADATA_KEY, r);
    return md;
  };
  return {
    async call(node, service, method, request, signal) {
      const def = methodOf(service, method);
      const reply = await forwarder.unary(node, def.path, def.requestSerialize(request), {
        metadata: metadata(),
        signal,
      });
      return def.responseDeserialize(reply) as ApiMessage;
    },
    async stream(node, service, method, request, signal) {
      const def = methodOf(service, method);
      const out: ApiMessage[] = [];
      const replies = forwarder.serverStream(node, def.path, def.requestSerialize(request), {
        metadata: metadata(),
        signal,
      });
      for await (const reply of replies) out.push(def.responseDeserialize(reply) as ApiMessage);
      return out;
    },
  };
}

const first = (reply: ApiMessage): ApiMessage =>
  ((reply.messages as ApiMessage[] | undefined) ?? [])[0] ?? {};

/** yamlSpec reads a COSI resource's spec from the YAML the server sends with it. */
const yamlSpec = (reply: ApiMessage): Record<string, unknown> => {
  const spec = ((reply.resource as ApiMessage | undefined)?.spec ?? {}) as { yaml_spec?: string };
  return (YAML.parse(spec.yaml_spec ?? '') ?? {}) as Record<string, unknown>;
};

export function remoteNode(node: string, peer: PeerCaller): NodeFacts {
  const machine = (method: string, request: ApiMessage, signal: AbortSignal) =>
    peer.call(node, 'machine.MachineService', method, request, signal).then(first);
  const cosiGet = (ptr: { namespace: string; type: string; id: string }, signal: AbortSignal) =>
    peer.call(node, 'cosi.resource.State', 'Get', { ...ptr }, signal).then(yamlSpec);
  return {
    node,
    async service(id, signal) {
      const services = ((await machine('ServiceList', {}, signal)).services ?? []) as ApiMessage[];
      const s = services.find((x) => x.id === id);
      if (!s) return undefined;
      const events = (((s.events as ApiMessage | undefined)?.events ?? []) as ApiMessage[]).map((e) => ({
        state: String(e.state ?? ''),
        msg: String(e.msg ?? ''),
      }));
      return { events, healthy: (s.health as ApiMessage | undefined)?.healthy === true };
    },
    async etcdMembers(signal) {
      const members = ((await machine('EtcdMemberList', {}, signal)).members ?? []) as ApiMessage[];
      return members.map((m) => ({
        id: String(m.id ?? ''),
        hostname: String(m.hostname ?? ''),
        peerURLs: ((m.peer_urls as unknown[] | undefined) ?? []).map(String),
        isLearner: m.is_learner === true,
      }));
    },
    async platform(signal) {
      const v = await machine('Version', {}, signal);
      return { container: (v.platform as ApiMessage | undefined)?.mode === 'container' };
    },
    async memTotalKiB(signal) {
      const m = await machine('Memory', {}, signal);
      return Number((m.meminfo as ApiMessage | undefined)?.memtotal ?? 0);
    },
    async ephemeral(signal) {
      const s = await cosiGet(VolumeStatus.pointer(EPHEMERAL_VOLUME_ID), signal);
      return { location: String(s.location ?? ''), size: Number(s.size ?? 0) };
    },
    // Keel nodes publish no Diagnostics resources yet (see local-node.ts): nothing to ask for
    async diagnostics() {
      return [];
    },
    async machineStage(signal) {
      return stageOf((await cosiGet(MachineStatus.pointer(MACHINE_STATUS_ID), signal)).stage);
    },
    async staticPods(signal) {
      const listed = await peer.stream(
        node,
        'cosi.resource.State',
        'List',
        { ...STATIC_POD_STATUSES },
        signal,
      );
      return listed.map((r) =>
        String(((r.resource as ApiMessage | undefined)?.metadata as ApiMessage | undefined)?.id ?? ''),
      );
    },
  };
}
