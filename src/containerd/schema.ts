// The slice of containerd's gRPC API (containers, tasks, images and content, v1) and of the CRI
// (runtime.v1 RuntimeService and ImageService) that Keel reads, as a protobufjs descriptor: package,
// message and field names and numbers exactly as containerd's and the CRI's .proto files. Built in code,
// so the single executable needs no file for it. Fields Keel does not read are left out (skipped on decode).
import protobuf from 'protobufjs';

type Field = { type: string; id: number; rule?: 'repeated'; keyType?: string };
const msg = (fields: Record<string, Field>) => ({ fields });
const labels = (id: number): Field => ({ type: 'string', id, keyType: 'string' });
const timestamp = (id: number): Field => ({ type: 'google.protobuf.Timestamp', id });

const DESCRIPTOR = {
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Timestamp: msg({ seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } }),
          },
        },
      },
    },
    containerd: {
      nested: {
        types: {
          nested: {
            Descriptor: msg({
              media_type: { type: 'string', id: 1 },
              digest: { type: 'string', id: 2 },
              size: { type: 'int64', id: 3 },
              annotations: labels(5),
            }),
          },
        },
        v1: {
          nested: {
            types: {
              nested: {
                Status: {
                  values: { UNKNOWN: 0, CREATED: 1, RUNNING: 2, STOPPED: 3, PAUSED: 4, PAUSING: 5 },
                },
                Process: msg({
                  container_id: { type: 'string', id: 1 },
                  id: { type: 'string', id: 2 },
                  pid: { type: 'uint32', id: 3 },
                  status: { type: 'Status', id: 4 },
                }),
              },
            },
          },
        },
        services: {
          nested: {
            containers: {
              nested: {
                v1: {
                  nested: {
                    Container: msg({
                      id: { type: 'string', id: 1 },
                      labels: labels(2),
                      image: { type: 'string', id: 3 },
                      created_at: timestamp(8),
                    }),
                    ListContainersRequest: msg({ filters: { type: 'string', id: 1, rule: 'repeated' } }),
                    ListContainersResponse: msg({
                      containers: { type: 'Container', id: 1, rule: 'repeated' },
                    }),
                  },
                },
              },
            },
            tasks: {
              nested: {
                v1: {
                  nested: {
                    ListTasksRequest: msg({ filter: { type: 'string', id: 1 } }),
                    ListTasksResponse: msg({
                      tasks: { type: 'containerd.v1.types.Process', id: 1, rule: 'repeated' },
                    }),
                  },
                },
              },
            },
            images: {
              nested: {
                v1: {
                  nested: {
                    Image: msg({
                      name: { type: 'string', id: 1 },
                      labels: labels(2),
                      target: { type: 'containerd.types.Descriptor', id: 3 },
                      created_at: timestamp(7),
                      updated_at: timestamp(8),
                    }),
                    ListImagesRequest: msg({ filters: { type: 'string', id: 1, rule: 'repeated' } }),
                    ListImagesResponse: msg({ images: { type: 'Image', id: 1, rule: 'repeated' } }),
                  },
                },
              },
            },
            content: {
              nested: {
                v1: {
                  nested: {
                    Info: msg({ digest: { type: 'string', id: 1 }, size: { type: 'int64', id: 2 } }),
                    InfoRequest: msg({ digest: { type: 'string', id: 1 } }),
                    InfoResponse: msg({ info: { type: 'Info', id: 1 } }),
                    ReadContentRequest: msg({
                      digest: { type: 'string', id: 1 },
                      offset: { type: 'int64', id: 2 },
                      size: { type: 'int64', id: 3 },
                    }),
                    ReadContentResponse: msg({
                      offset: { type: 'int64', id: 1 },
                      data: { type: 'bytes', id: 2 },
                    }),
                  },
                },
              },
            },
          },
        },
      },
    },
    runtime: {
      nested: {
        v1: {
          nested: {
            PodSandboxState: { values: { SANDBOX_READY: 0, SANDBOX_NOTREADY: 1 } },
            ContainerState: {
              values: {
                CONTAINER_CREATED: 0,
                CONTAINER_RUNNING: 1,
                CONTAINER_EXITED: 2,
                CONTAINER_UNKNOWN: 3,
              },
            },
            PodSandboxStateValue: msg({ state: { type: 'PodSandboxState', id: 1 } }),
            ContainerStateValue: msg({ state: { type: 'ContainerState', id: 1 } }),
            PodSandboxFilter: msg({
              id: { type: 'string', id: 1 },
              state: { type: 'PodSandboxStateValue', id: 2 },
              label_selector: labels(3),
            }),
            PodSandboxMetadata: msg({
              name: { type: 'string', id: 1 },
              uid: { type: 'string', id: 2 },
              namespace: { type: 'string', id: 3 },
              attempt: { type: 'uint32', id: 4 },
            }),
            PodSandbox: msg({
              id: { type: 'string', id: 1 },
              metadata: { type: 'PodSandboxMetadata', id: 2 },
              state: { type: 'PodSandboxState', id: 3 },
              labels: labels(5),
            }),
            ListPodSandboxRequest: msg({ filter: { type: 'PodSandboxFilter', id: 1 } }),
            ListPodSandboxResponse: msg({ items: { type: 'PodSandbox', id: 1, rule: 'repeated' } }),
            PodSandboxStatus: msg({
              id: { type: 'string', id: 1 },
              metadata: { type: 'PodSandboxMetadata', id: 2 },
              state: { type: 'PodSandboxState', id: 3 },
            }),
            PodSandboxStatusRequest: msg({
              pod_sandbox_id: { type: 'string', id: 1 },
              verbose: { type: 'bool', id: 2 },
            }),
            PodSandboxStatusResponse: msg({
              status: { type: 'PodSandboxStatus', id: 1 },
              info: labels(2),
            }),
            ContainerMetadata: msg({ name: { type: 'string', id: 1 }, attempt: { type: 'uint32', id: 2 } }),
            ImageSpec: msg({ image: { type: 'string', id: 1 } }),
            ContainerFilter: msg({
              id: { type: 'string', id: 1 },
              state: { type: 'ContainerStateValue', id: 2 },
              pod_sandbox_id: { type: 'string', id: 3 },
              label_selector: labels(4),
            }),
            Container: msg({
              id: { type: 'string', id: 1 },
              pod_sandbox_id: { type: 'string', id: 2 },
              metadata: { type: 'ContainerMetadata', id: 3 },
              image: { type: 'ImageSpec', id: 4 },
              image_ref: { type: 'string', id: 5 },
              state: { type: 'ContainerState', id: 6 },
              labels: labels(8),
              annotations: labels(9),
            }),
            ListContainersRequest: msg({ filter: { type: 'ContainerFilter', id: 1 } }),
            ListContainersResponse: msg({ containers: { type: 'Container', id: 1, rule: 'repeated' } }),
            ContainerStatus: msg({
              id: { type: 'string', id: 1 },
              state: { type: 'ContainerState', id: 3 },
              log_path: { type: 'string', id: 15 },
            }),
            ContainerStatusRequest: msg({
              container_id: { type: 'string', id: 1 },
              verbose: { type: 'bool', id: 2 },
            }),
            ContainerStatusResponse: msg({ status: { type: 'ContainerStatus', id: 1 }, info: labels(2) }),
            ImageFilter: msg({ image: { type: 'ImageSpec', id: 1 } }),
            Image: msg({
              id: { type: 'string', id: 1 },
              repo_tags: { type: 'string', id: 2, rule: 'repeated' },
              repo_digests: { type: 'string', id: 3, rule: 'repeated' },
              size: { type: 'uint64', id: 4 },
            }),
            ListImagesRequest: msg({ filter: { type: 'ImageFilter', id: 1 } }),
            ListImagesResponse: msg({ images: { type: 'Image', id: 1, rule: 'repeated' } }),
          },
        },
      },
    },
  },
};

let root: protobuf.Root | undefined;

/** containerdType looks a message up by its full name, e.g. `runtime.v1.ListContainersRequest`. */
export function containerdType(name: string): protobuf.Type {
  root ??= protobuf.Root.fromJSON(DESCRIPTOR as protobuf.INamespace);
  return root.lookupType(name);
}
