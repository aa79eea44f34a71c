// The meta resources: Namespaces and ResourceDefinitions in namespace "meta", owned by "meta",
// how they are registered in a state, and how a typed kind resolves against them.
export { MetaOwner, NamespaceName } from './core.js';
export { type Namespace, type NamespaceSpec, NamespaceType, newNamespace } from './namespace.js';
export { registerDefault, registerNamespace, registerResource } from './register.js';
export { ResolveTypeError, type ResolveTypeErrorCode, resolveType, resolveTypeIn } from './resolve.js';
export {
  newResourceDefinition,
  type ResourceDefinition,
  ResourceDefinitionSpecProto,
  ResourceDefinitionType,
} from './resource-definition.js';
