// The per-method role table of the Talos machine API (v1.13). Pure data: a method missing here is admin-only.
import { Role } from '../../pki/index.js';

const { admin: A, operator: O, reader: R, etcdBackup: E, metaWriter: M, imageVerifier: V } = Role;

const AOR = [A, O, R] as const;
const AO = [A, O] as const;
const ONLY_A = [A] as const;

/** Full method path → the roles that may call it. */
export const METHOD_RULES: Readonly<Record<string, readonly Role[]>> = Object.freeze({
  '/cluster.ClusterService/HealthCheck': AOR,
  '/inspect.InspectService/ControllerRuntimeDependencies': AOR,

  '/machine.MachineService/ApplyConfiguration': ONLY_A,
  '/machine.MachineService/Bootstrap': ONLY_A,
  '/machine.MachineService/CPUFreqStats': AOR,
  '/machine.MachineService/CPUInfo': AOR,
  '/machine.MachineService/Containers': AOR,
  '/machine.MachineService/Copy': ONLY_A,
  '/machine.MachineService/DiskStats': AOR,
  '/machine.MachineService/DiskUsage': AOR,
  '/machine.MachineService/Dmesg': AOR,
  '/machine.MachineService/EtcdAlarmDisarm': AO,
  '/machine.MachineService/EtcdAlarmList': [A, O, R, E],
  '/machine.MachineService/EtcdDefragment': AO,
  '/machine.MachineService/EtcdDowngradeCancel': ONLY_A,
  '/machine.MachineService/EtcdDowngradeEnable': ONLY_A,
  '/machine.MachineService/EtcdDowngradeValidate': ONLY_A,
  '/machine.MachineService/EtcdForfeitLeadership': ONLY_A,
  '/machine.MachineService/EtcdLeaveCluster': ONLY_A,
  '/machine.MachineService/EtcdMemberList': [A, O, R, E],
  '/machine.MachineService/EtcdRecover': ONLY_A,
  '/machine.MachineService/EtcdRemoveMemberByID': ONLY_A,
  '/machine.MachineService/EtcdSnapshot': [A, O, E],
  '/machine.MachineService/EtcdStatus': [A, O, R, E],
  '/machine.MachineService/Events': AOR,
  '/machine.MachineService/GenerateClientConfiguration': ONLY_A,
  '/machine.MachineService/Hostname': AOR,
  '/machine.MachineService/ImageList': AOR,
  '/machine.MachineService/ImagePull': AO,
  '/machine.MachineService/Kubeconfig': ONLY_A,
  '/machine.MachineService/List': AOR,
  '/machine.MachineService/LoadAvg': AOR,
  '/machine.MachineService/Logs': AOR,
  '/machine.MachineService/LogsContainers': AOR,
  '/machine.MachineService/Memory': AOR,
  '/machine.MachineService/MetaDelete': [A, M],
  '/machine.MachineService/MetaWrite': [A, M],
  '/machine.MachineService/Mounts': AOR,
  '/machine.MachineService/Netstat': AOR,
  '/machine.MachineService/NetworkDeviceStats': AOR,
  '/machine.MachineService/PacketCapture': AO,
  '/machine.MachineService/Processes': AOR,
  '/machine.MachineService/Read': ONLY_A,
  '/machine.MachineService/Reboot': AO,
  '/machine.MachineService/Reset': ONLY_A,
  '/machine.MachineService/Restart': AO,
  '/machine.MachineService/Rollback': ONLY_A,
  '/machine.MachineService/ServiceList': AOR,
  '/machine.MachineService/ServiceRestart': AO,
  '/machine.MachineService/ServiceStart': AO,
  '/machine.MachineService/ServiceStop': AO,
  '/machine.MachineService/Shutdown': AO,
  '/machine.MachineService/Stats': AOR,
  '/machine.MachineService/SystemStat': AOR,
  '/machine.MachineService/Upgrade': ONLY_A,
  '/machine.MachineService/Version': AOR,

  '/machine.ImageService/List': AOR,
  '/machine.ImageService/Pull': AO,
  '/machine.ImageService/Import': ONLY_A,
  '/machine.ImageService/Remove': ONLY_A,
  '/machine.ImageService/Verify': [A, O, R, V],
  '/machine.LifecycleService/Install': ONLY_A,
  '/machine.LifecycleService/Upgrade': ONLY_A,
  '/machine.DebugService/ContainerRun': ONLY_A,

  // Per-type access (sensitivity, read-only) is the State service's own filter.
  '/cosi.resource.State/Get': AOR,
  '/cosi.resource.State/List': AOR,
  '/cosi.resource.State/Watch': AOR,
  '/cosi.resource.State/Create': ONLY_A,
  '/cosi.resource.State/Update': ONLY_A,
  '/cosi.resource.State/Destroy': ONLY_A,

  '/storage.StorageService/Disks': AOR,
  '/storage.StorageService/BlockDeviceWipe': ONLY_A,

  '/time.TimeService/Time': AOR,
  '/time.TimeService/TimeCheck': AOR,
});

/** Roles for a method without a rule. */
export const FALLBACK_ROLES: readonly Role[] = ONLY_A;

/**
 * Writes a maintenance-mode reader may still make: installing the first config and writing or deleting a
 * META tag (a static network for the metal platform, before any config), as upstream, and powering the
 * machine off, which Keel adds (upstream asks for admin, which no maintenance client can be). Anyone who
 * reaches a maintenance node may already take it over with a config of their own, so powering it off gives
 * them nothing more; Reboot, Reset and Upgrade stay refused.
 */
export const MAINTENANCE_WRITES: ReadonlySet<string> = new Set([
  '/machine.MachineService/ApplyConfiguration',
  '/machine.MachineService/MetaDelete',
  '/machine.MachineService/MetaWrite',
  '/machine.MachineService/Shutdown',
]);

/** rolesFor is the rule of a method, or the admin-only fallback. */
export const rolesFor = (method: string): readonly Role[] => METHOD_RULES[method] ?? FALLBACK_ROLES;
