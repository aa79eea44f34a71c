// Upstream's names for the node metadata Talos manages (machinery/constants): the control plane's role label
// (also its taint's key), the annotations that record which keys Talos owns on the Node, and the one that
// marks a cordon as Talos' own.
export const LABEL_NODE_ROLE_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';

export const ANNOTATION_OWNED_LABELS = 'talos.dev/owned-labels';
export const ANNOTATION_OWNED_ANNOTATIONS = 'talos.dev/owned-annotations';
export const ANNOTATION_OWNED_TAINTS = 'talos.dev/owned-taints';

export const ANNOTATION_CORDONED_KEY = 'talos.dev/cordoned';
export const ANNOTATION_CORDONED_VALUE = 'true';

/** corev1.TaintEffectNoSchedule */
export const TAINT_EFFECT_NO_SCHEDULE = 'NoSchedule';
