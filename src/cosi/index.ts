// @cosi-project/runtime-ts: the COSI runtime ported to TypeScript. Each room is a namespace here;
// import a room directly (e.g. ./state/index.js) for unqualified names.

export * as generic from './controller/generic/index.js';
export * as controller from './controller/index.js';
export * as resource from './resource/index.js';
export * as meta from './resource/meta/index.js';
export * as output from './resource/output/index.js';
export * as protobuf from './resource/protobuf/index.js';
export * as state from './state/index.js';
