// The cri namespace, as upstream's: the container runtime's resources.
export const CRI_NAMESPACE = 'cri';
