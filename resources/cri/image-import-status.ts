// ImageImportStatuses.cri.keel.dev (one per archive, id its file name without .tar): the images of an OCI
// archive the components layer ships (/usr/share/keel/images), imported into containerd this boot — where,
// under which names, or why not. Keel's own type: upstream pulls its images from registries or its image
// cache; Keel ships these in its layer.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str, strs } from '../network/yaml-read.js';
import { CRI_NAMESPACE } from './namespace.js';

export interface ImageImportStatusSpec {
  /** the archive's path */
  archive: string;
  /** the archive's sha256: a status for the same bytes means they are imported, once a boot */
  sha256: string;
  /** containerd namespaces it was imported into */
  namespaces: string[];
  /** the images it holds, name@digest */
  images: string[];
  /** why the last import failed; empty once it succeeded */
  error: string;
}

export const ImageImportStatus = defineResource<ImageImportStatusSpec>({
  type: 'ImageImportStatuses.cri.keel.dev',
  defaultNamespace: CRI_NAMESPACE,
  printColumns: [
    { name: 'Images', jsonPath: '{.images}' },
    { name: 'Namespaces', jsonPath: '{.namespaces}' },
    { name: 'Error', jsonPath: '{.error}' },
  ],
  empty: () => ({ archive: '', sha256: '', namespaces: [], images: [], error: '' }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      archive: str(o.archive),
      sha256: str(o.sha256),
      namespaces: strs(o.namespaces),
      images: strs(o.images),
      error: str(o.error),
    };
  },
});
export type ImageImportStatus = ResourceOf<typeof ImageImportStatus>;
