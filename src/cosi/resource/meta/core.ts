// The meta namespace and owner: where and by whom Namespace and ResourceDefinition resources are kept.

/** NamespaceName is the namespace holding the meta resources (upstream meta.NamespaceName). */
export const NamespaceName = 'meta';

/** MetaOwner owns every meta resource (upstream meta.Owner, renamed to keep clear of the Owner type). */
export const MetaOwner = 'meta';
