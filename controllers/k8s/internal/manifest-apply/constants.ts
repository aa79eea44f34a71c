// Upstream's names for the bootstrap manifests' apply, byte for byte: another control plane (or a Talos
// one in the same cluster) must find the same lock, inventory and field manager.

/** the etcd mutex prefix (constants.EtcdTalosManifestApplyMutex) */
export const MANIFEST_APPLY_MUTEX = 'talos:v1:manifestApplyMutex';
/** where the inventory ConfigMap lives, and its name */
export const INVENTORY_NAMESPACE = 'kube-system';
export const INVENTORY_NAME = 'talos-bootstrap-manifests-inventory';
/** the annotation naming the inventory an applied object belongs to (go-kubernetes' ssa package) */
export const INVENTORY_ANNOTATION = 'config.k8s.io/owning-inventory';
/** the server-side apply field manager (constants.KubernetesFieldManagerName) */
export const FIELD_MANAGER = 'talos';
