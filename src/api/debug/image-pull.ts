// ImageService.Pull, answered from the images already in the node: Keel ships its images in the components
// layer and pulls nothing at run time. A present image is answered as upstream's finished pull is, with
// its name pinned to its digest; an absent one is NOT_FOUND, saying so.
import { apiErrorOf } from '../containers/connect.js';
import { ApiError } from '../errors.js';
import { serverStreamHandler } from '../handlers.js';
import type { DebugDeps } from './deps.js';
import { findImage, pulledName } from './image-ref.js';
import { namespaceOf } from './instance.js';

export const imagePullHandler = (deps: Pick<DebugDeps, 'images'>) =>
  serverStreamHandler(async (req, send, ctx) => {
    const namespace = namespaceOf(req.containerd);
    const ref = String(req.image_ref ?? '');
    if (!ref) throw new ApiError('invalid-argument', 'image_ref is required');
    const image = findImage(
      ref,
      await deps.images(namespace, { signal: ctx.signal }).catch((e) => Promise.reject(apiErrorOf(e))),
    );
    if (!image) throw notPresent(ref, namespace);
    await send({ name: pulledName(ref, image) });
  });

/** notPresent: what a client asking for an image the node does not hold is told. */
export const notPresent = (ref: string, namespace: string): ApiError =>
  new ApiError(
    'not-found',
    `image ${JSON.stringify(ref)} is not in containerd's ${JSON.stringify(namespace)} namespace: Keel pulls no images at run time, it runs only the images shipped in the node (talosctl image list --namespace ${namespace === 'k8s.io' ? 'cri' : 'system'} shows them)`,
  );
