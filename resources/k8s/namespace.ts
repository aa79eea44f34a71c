// The two Kubernetes namespaces of upstream: `k8s` for what every node has (its node name, the kubelet),
// `controlplane` for what only a control plane runs (the static pods' configs, the manifests).
export const K8S_NAMESPACE = 'k8s';
export const K8S_CONTROL_PLANE_NAMESPACE = 'controlplane';
