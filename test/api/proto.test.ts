import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { API_PROTO_FILES, API_SERVICES, loadApiProto } from '../../src/api/proto.js';

const proto = loadApiProto();
const E = 'google.protobuf.Empty';

// method: request → response, with `stream ` marking streamed sides, as upstream v1.13 declares them.
const MACHINE = `
ApplyConfiguration: machine.ApplyConfigurationRequest → machine.ApplyConfigurationResponse
Bootstrap: machine.BootstrapRequest → machine.BootstrapResponse
Containers: machine.ContainersRequest → machine.ContainersResponse
Copy: machine.CopyRequest → stream common.Data
CPUFreqStats: ${E} → machine.CPUFreqStatsResponse
CPUInfo: ${E} → machine.CPUInfoResponse
DiskStats: ${E} → machine.DiskStatsResponse
Dmesg: machine.DmesgRequest → stream common.Data
Events: machine.EventsRequest → stream machine.Event
EtcdMemberList: machine.EtcdMemberListRequest → machine.EtcdMemberListResponse
EtcdRemoveMemberByID: machine.EtcdRemoveMemberByIDRequest → machine.EtcdRemoveMemberByIDResponse
EtcdLeaveCluster: machine.EtcdLeaveClusterRequest → machine.EtcdLeaveClusterResponse
EtcdForfeitLeadership: machine.EtcdForfeitLeadershipRequest → machine.EtcdForfeitLeadershipResponse
EtcdRecover: stream common.Data → machine.EtcdRecoverResponse
EtcdSnapshot: machine.EtcdSnapshotRequest → stream common.Data
EtcdAlarmList: ${E} → machine.EtcdAlarmListResponse
EtcdAlarmDisarm: ${E} → machine.EtcdAlarmDisarmResponse
EtcdDefragment: ${E} → machine.EtcdDefragmentResponse
EtcdStatus: ${E} → machine.EtcdStatusResponse
EtcdDowngradeValidate: machine.EtcdDowngradeValidateRequest → machine.EtcdDowngradeValidateResponse
EtcdDowngradeEnable: machine.EtcdDowngradeEnableRequest → machine.EtcdDowngradeEnableResponse
EtcdDowngradeCancel: ${E} → machine.EtcdDowngradeCancelResponse
Hostname: ${E} → machine.HostnameResponse
Kubeconfig: ${E} → stream common.Data
List: machine.ListRequest → stream machine.FileInfo
DiskUsage: machine.DiskUsageRequest → stream machine.DiskUsageInfo
LoadAvg: ${E} → machine.LoadAvgResponse
Logs: machine.LogsRequest → stream common.Data
LogsContainers: ${E} → machine.LogsContainersResponse
Memory: ${E} → machine.MemoryResponse
Mounts: ${E} → machine.MountsResponse
NetworkDeviceStats: ${E} → machine.NetworkDeviceStatsResponse
Processes: ${E} → machine.ProcessesResponse
Read: machine.ReadRequest → stream common.Data
Reboot: machine.RebootRequest → machine.RebootResponse
Restart: machine.RestartRequest → machine.RestartResponse
Rollback: machine.RollbackRequest → machine.RollbackResponse
Reset: machine.ResetRequest → machine.ResetResponse
ServiceList: ${E} → machine.ServiceListResponse
ServiceRestart: machine.ServiceRestartRequest → machine.ServiceRestartResponse
ServiceStart: machine.ServiceStartRequest → machine.ServiceStartResponse
ServiceStop: machine.ServiceStopRequest → machine.ServiceStopResponse
Shutdown: machine.ShutdownRequest → machine.ShutdownResponse
Stats: machine.StatsRequest → machine.StatsResponse
SystemStat: ${E} → machine.SystemStatResponse
Upgrade: machine.UpgradeRequest → machine.UpgradeResponse
Version: ${E} → machine.VersionResponse
GenerateClientConfiguration: machine.GenerateClientConfigurationRequest → machine.GenerateClientConfigurationResponse
PacketCapture: machine.PacketCaptureRequest → stream common.Data
Netstat: machine.NetstatRequest → machine.NetstatResponse
MetaWrite: machine.MetaWriteRequest → machine.MetaWriteResponse
MetaDelete: machine.MetaDeleteRequest → machine.MetaDeleteResponse
ImageList: machine.ImageListRequest → stream machine.ImageListResponse
ImagePull: machine.ImagePullRequest → machine.ImagePullResponse`;

const OTHERS: Record<string, string> = {
  'machine.ImageService': `
List: machine.ImageServiceListRequest → stream machine.ImageServiceListResponse
Pull: machine.ImageServicePullRequest → stream machine.ImageServicePullResponse
Import: stream machine.ImageServiceImportRequest → machine.ImageServiceImportResponse
Remove: machine.ImageServiceRemoveRequest → ${E}
Verify: machine.ImageServiceVerifyRequest → machine.ImageServiceVerifyResponse`,
  'machine.LifecycleService': `
Install: machine.LifecycleServiceInstallRequest → stream machine.LifecycleServiceInstallResponse
Upgrade: machine.LifecycleServiceUpgradeRequest → stream machine.LifecycleServiceUpgradeResponse`,
  'machine.DebugService': `
ContainerRun: stream machine.DebugContainerRunRequest → stream machine.DebugContainerRunResponse`,
  'storage.StorageService': `
Disks: ${E} → storage.DisksResponse
BlockDeviceWipe: storage.BlockDeviceWipeRequest → storage.BlockDeviceWipeResponse`,
  'time.TimeService': `
Time: ${E} → time.TimeResponse
TimeCheck: time.TimeRequest → time.TimeResponse`,
  'cluster.ClusterService': `
HealthCheck: cluster.HealthCheckRequest → stream cluster.HealthCheckProgress`,
  'inspect.InspectService': `
ControllerRuntimeDependencies: ${E} → inspect.ControllerRuntimeDependenciesResponse`,
  'securityapi.SecurityService': `
Certificate: securityapi.CertificateRequest → securityapi.CertificateResponse`,
};

interface Row {
  method: string;
  req: string;
  res: string;
  reqStream: boolean;
  resStream: boolean;
}
const parse = (table: string): Row[] =>
  table
    .trim()
    .split('\n')
    .map((line) => {
      const m = /^(\w+): (stream )?([\w.]+) → (stream )?([\w.]+)$/.exec(line.trim());
      if (!m) throw new Error(`bad table line ${line}`);
      return { method: m[1]!, reqStream: !!m[2], req: m[3]!, resStream: !!m[4], res: m[5]! };
    });

const typeOf = (name: string) => proto.packageDefinition[name];
/** descriptorOf is a message's descriptor; loaded definitions are copies, so compare them by content. */
const descriptorOf = (name: string) => (typeOf(name) as { type?: unknown } | undefined)?.type;
const reqType = (def: object) => (def as { requestType: { type: unknown } }).requestType.type;
const resType = (def: object) => (def as { responseType: { type: unknown } }).responseType.type;

// message: field → number, as upstream numbers them.
const FIELDS: Record<string, Record<string, number>> = {
  'common.Metadata': { hostname: 1, error: 2, status: 3 },
  'common.Data': { metadata: 1, bytes: 2 },
  'common.Empty': { metadata: 1 },
  'common.EmptyResponse': { messages: 1 },
  'common.ContainerdInstance': { driver: 1, namespace: 2 },
  'google.rpc.Status': { code: 1, message: 2, details: 3 },
  'machine.ApplyConfigurationRequest': { data: 1, mode: 4, dry_run: 5, try_mode_timeout: 6 },
  'machine.ApplyConfiguration': { metadata: 1, warnings: 2, mode: 3, mode_details: 4 },
  'machine.ResetRequest': {
    graceful: 1,
    reboot: 2,
    system_partitions_to_wipe: 3,
    user_disks_to_wipe: 4,
    mode: 5,
  },
  'machine.LogsRequest': { namespace: 1, id: 2, driver: 3, follow: 4, tail_lines: 5 },
  'machine.ListRequest': { root: 1, recurse: 2, recursion_depth: 3, types: 4, report_xattrs: 5 },
  'machine.FileInfo': {
    metadata: 1,
    name: 2,
    size: 3,
    mode: 4,
    modified: 5,
    is_dir: 6,
    error: 7,
    link: 8,
    relative_name: 9,
    uid: 10,
    gid: 11,
    xattrs: 12,
  },
  'machine.EventsRequest': { tail_events: 1, tail_id: 2, tail_seconds: 3, with_actor_id: 4 },
  'machine.Event': { metadata: 1, data: 2, id: 3, actor_id: 4 },
  'machine.Version': { metadata: 1, version: 2, platform: 3, features: 4 },
  'machine.VersionInfo': { tag: 1, sha: 2, built: 3, go_version: 4, os: 5, arch: 6 },
  'machine.PlatformInfo': { name: 1, mode: 2 },
  'machine.FeaturesInfo': { rbac: 1 },
  'machine.ServiceInfo': { id: 1, state: 2, events: 3, health: 4 },
  'machine.EtcdMember': { id: 2, hostname: 3, peer_urls: 4, client_urls: 5, is_learner: 6 },
  'machine.EtcdMembers': { legacy_members: 2, members: 3 },
  'machine.MountStat': { filesystem: 1, size: 2, available: 3, mounted_on: 4 },
  'machine.ContainerInfo': {
    namespace: 1,
    id: 2,
    image: 3,
    pid: 4,
    status: 5,
    pod_id: 6,
    name: 7,
    network_namespace: 8,
    internal_id: 9,
    uid: 10,
  },
  'machine.MetaWriteRequest': { key: 1, value: 2 },
  'machine.ImageServicePullRequest': { containerd: 1, image_ref: 3 },
  'cluster.HealthCheckRequest': { wait_timeout: 1, cluster_info: 2 },
  'cluster.HealthCheckProgress': { metadata: 1, message: 2 },
  'securityapi.CertificateResponse': { ca: 1, crt: 2 },
  'cosi.resource.GetRequest': { namespace: 1, type: 2, id: 3, options: 4 },
};

// enum: value → number
const ENUMS: Record<string, Record<string, number>> = {
  'machine.ApplyConfigurationRequest.Mode': { REBOOT: 0, AUTO: 1, NO_REBOOT: 2, STAGED: 3, TRY: 4 },
  'machine.RebootRequest.Mode': { DEFAULT: 0, POWERCYCLE: 1, FORCE: 2 },
  'machine.ResetRequest.WipeMode': { ALL: 0, SYSTEM_DISK: 1, USER_DISKS: 2 },
  'machine.MachineStatusEvent.MachineStage': {
    UNKNOWN: 0,
    BOOTING: 1,
    INSTALLING: 2,
    MAINTENANCE: 3,
    RUNNING: 4,
    REBOOTING: 5,
    SHUTTING_DOWN: 6,
    RESETTING: 7,
    UPGRADING: 8,
  },
  'common.Code': { FATAL: 0, LOCKED: 1, CANCELED: 2 },
  'common.ContainerDriver': { CONTAINERD: 0, CRI: 1 },
  'common.ContainerdNamespace': { NS_UNKNOWN: 0, NS_SYSTEM: 1, NS_CRI: 2 },
};

describe('the checked-in machine API protos', () => {
  it('load with every service, including COSI through the include path', () => {
    expect(API_PROTO_FILES).toContain('machine/machine.proto');
    for (const name of API_SERVICES) expect(proto.services.get(name), name).toBeDefined();
    expect(Object.keys(proto.services.get('cosi.resource.State')!)).toEqual(
      expect.arrayContaining(['Get', 'List', 'Watch', 'Create', 'Update', 'Destroy']),
    );
  });

  it('declare all 54 MachineService RPCs with their exact types and streaming', () => {
    const rows = parse(MACHINE);
    expect(rows).toHaveLength(54);
    const svc = proto.services.get('machine.MachineService')!;
    expect(Object.keys(svc).sort()).toEqual(rows.map((r) => r.method).sort());
    for (const r of rows) {
      const def = svc[r.method]!;
      expect(def.path).toBe(`/machine.MachineService/${r.method}`);
      expect([def.requestStream, def.responseStream], r.method).toEqual([r.reqStream, r.resStream]);
      expect(reqType(def), `${r.method} request`).toEqual(descriptorOf(r.req));
      expect(resType(def), `${r.method} response`).toEqual(descriptorOf(r.res));
    }
    expect(svc.GenerateConfiguration).toBeUndefined(); // removed in v1.13
  });

  it.each(Object.entries(OTHERS))('declares %s exactly', (service, table) => {
    const rows = parse(table);
    const svc = proto.services.get(service as never)!;
    expect(Object.keys(svc).sort()).toEqual(rows.map((r) => r.method).sort());
    for (const r of rows) {
      const def = svc[r.method]!;
      expect(def.path).toBe(`/${service}/${r.method}`);
      expect([def.requestStream, def.responseStream], r.method).toEqual([r.reqStream, r.resStream]);
      expect(reqType(def)).toEqual(descriptorOf(r.req));
      expect(resType(def)).toEqual(descriptorOf(r.res));
    }
  });

  it.each(Object.entries(FIELDS))('numbers the fields of %s as upstream', (message, fields) => {
    const t = typeOf(message) as { type?: { field: { name: string; number: number }[] } } | undefined;
    expect(t?.type, message).toBeDefined();
    const numbers = Object.fromEntries(t!.type!.field.map((f) => [f.name, f.number]));
    for (const [name, no] of Object.entries(fields)) expect(numbers[name], `${message}.${name}`).toBe(no);
  });

  it.each(Object.entries(ENUMS))('numbers the values of %s as upstream', (name, values) => {
    type EnumDesc = { name: string; value: { name: string; number: number }[] };
    let desc = (typeOf(name) as { type?: EnumDesc } | undefined)?.type;
    if (!desc) {
      // nested enums live inside their message's descriptor
      const dot = name.lastIndexOf('.');
      const parent = descriptorOf(name.slice(0, dot)) as { enumType?: EnumDesc[] } | undefined;
      desc = parent?.enumType?.find((e) => e.name === name.slice(dot + 1));
    }
    expect(desc, name).toBeDefined();
    expect(Object.fromEntries(desc!.value.map((v) => [v.name, v.number]))).toEqual(values);
  });

  it('gives every envelope reply element metadata as field 1', () => {
    const svcs = [
      'machine.MachineService',
      'storage.StorageService',
      'time.TimeService',
      'cluster.ClusterService',
    ];
    for (const s of svcs)
      for (const def of Object.values(proto.services.get(s as never)!)) {
        if (def.requestStream) continue;
        const res = (
          def as unknown as {
            responseType: {
              type: { name: string; field: { name: string; number: number; typeName: string }[] };
            };
          }
        ).responseType.type;
        const first = def.responseStream ? res.field[0] : undefined;
        if (def.responseStream)
          expect(first, `${def.path} item`).toMatchObject({ name: 'metadata', number: 1 });
        else if (res.name !== 'Empty')
          expect(res.field[0], `${def.path} reply`).toMatchObject({ name: 'messages', number: 1 });
      }
  });
});

describe('loadApiProto', () => {
  it('names the directories it searched when the files are missing', async () => {
    const { ApiProtoLoadError } = await import('../../src/api/proto.js');
    // proto-loader warns of each file it cannot find before it throws: expected here, so kept off the output
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => warned.mockRestore());
    expect(() => loadApiProto({ protoDir: '/nonexistent/protos/' })).toThrow(ApiProtoLoadError);
    expect(() => loadApiProto({ protoDir: '/nonexistent/protos/' })).toThrow(/\/nonexistent\/protos\//);
    expect(String(warned.mock.calls[0]?.[0])).toContain('not found in any of the include paths');
  });
});
