// cosi/resource: the resource model — identity, metadata, typed resources and their definitions,
// label and id queries, the type registry. Encoding lives in ./protobuf, ./yaml.ts and ./output.
export * from './data.js';
export * from './definition.js';
export * from './finalizers.js';
export * from './id-query.js';
export * from './kind.js';
export * from './kv.js';
export * from './label-query.js';
export * from './labels.js';
export * from './metadata.js';
export * from './opaque.js';
export * from './phase.js';
export * from './proto-schema.js';
export * from './registry.js';
export * from './resource.js';
export * from './typed.js';
export * from './version.js';
