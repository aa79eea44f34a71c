// ImageService.List and the deprecated MachineService.ImageList: the images of containerd's `system` or
// `k8s.io` namespace with name, digest, creation time and size (as containerd's Image.Size: an image whose
// blobs cannot be walked is listed without one, as upstream). Keel runs one containerd for both drivers.
import { type ContainerdClient, imageSize, platformOfArch } from '../../containerd/index.js';
import { ApiError } from '../errors.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import { type ContainerdHost, withContainerd } from './connect.js';

const NAMESPACES: Readonly<Record<string, string>> = { NS_SYSTEM: 'system', NS_CRI: 'k8s.io' };

/** namespaceOf maps common.ContainerdNamespace to containerd's name, refusing NS_UNKNOWN as upstream. */
export function namespaceOf(ns: unknown): string {
  const name = NAMESPACES[String(ns ?? 'NS_UNKNOWN')];
  if (!name)
    throw new ApiError('invalid-argument', `invalid containerd namespace ${String(ns ?? 'NS_UNKNOWN')}`);
  return name;
}

/** instanceNamespace checks an ImageService request's ContainerdInstance, as upstream's helper. */
export function instanceNamespace(instance: Record<string, unknown> | undefined): string {
  const driver = String(instance?.driver ?? 'CONTAINERD');
  if (driver !== 'CONTAINERD' && driver !== 'CRI')
    throw new ApiError('invalid-argument', `invalid containerd driver ${driver}`);
  const namespace = namespaceOf(instance?.namespace);
  if (driver === 'CONTAINERD' && namespace === 'k8s.io')
    throw new ApiError('invalid-argument', 'cannot use CRI namespace with containerd driver');
  return namespace;
}

interface Listed {
  readonly name: string;
  readonly digest: string;
  readonly size: number | undefined;
  readonly createdAt: Date | undefined;
  readonly labels: Readonly<Record<string, string>>;
}

async function* listImages(
  c: ContainerdClient,
  namespace: string,
  signal: AbortSignal,
): AsyncGenerator<Listed> {
  const platform = platformOfArch(process.arch);
  const read = (digest: string) => c.readBlob(digest, { namespace, signal });
  for (const image of await c.images({ namespace, signal })) {
    const size = await imageSize(image.target, read, platform).catch(() => undefined);
    yield {
      name: image.name,
      digest: image.target.digest,
      size,
      createdAt: image.createdAt,
      labels: image.labels,
    };
  }
}

const timestamp = (d: Date | undefined) =>
  d ? { seconds: String(Math.floor(d.getTime() / 1000)), nanos: (d.getTime() % 1000) * 1e6 } : undefined;

function wire(i: Listed): Record<string, unknown> {
  return {
    name: i.name,
    digest: i.digest,
    ...(i.size !== undefined ? { size: String(i.size) } : {}),
    ...(i.createdAt ? { created_at: timestamp(i.createdAt) } : {}),
  };
}

export const imageServiceListHandler = (host: ContainerdHost): Handler =>
  serverStreamHandler(async (req, send, ctx) => {
    const namespace = instanceNamespace(req.containerd as Record<string, unknown> | undefined);
    await withContainerd(host, async (c) => {
      for await (const i of listImages(c, namespace, ctx.signal))
        await send({ ...wire(i), labels: i.labels });
    });
  });

export const imageListHandler = (host: ContainerdHost): Handler =>
  serverStreamHandler(async (req, send, ctx) => {
    const namespace = namespaceOf(req.namespace);
    await withContainerd(host, async (c) => {
      for await (const i of listImages(c, namespace, ctx.signal)) await send(wire(i));
    });
  });
