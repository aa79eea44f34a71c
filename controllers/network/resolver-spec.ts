// network.ResolverSpecController: the merged ResolverSpec → ResolverStatus, which resolv.conf follows.
import { ResolverSpec, ResolverStatus } from '../../resources/network/index.js';
import { specMirrorController } from './internal/spec-mirror.js';

export const ResolverSpecController = specMirrorController({
  name: 'network.ResolverSpecController',
  spec: ResolverSpec,
  status: ResolverStatus,
  toStatus: (s) => ({ dnsServers: [...s.dnsServers], searchDomains: [...s.searchDomains] }),
});
