// network.TimeServerSpecController: the merged TimeServerSpec → TimeServerStatus, which time sync follows.
import { TimeServerSpec, TimeServerStatus } from '../../resources/network/index.js';
import { specMirrorController } from './internal/spec-mirror.js';

export const TimeServerSpecController = specMirrorController({
  name: 'network.TimeServerSpecController',
  spec: TimeServerSpec,
  status: TimeServerStatus,
  toStatus: (s) => ({ ntpServers: [...s.ntpServers] }),
});
