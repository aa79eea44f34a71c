// cosi/testing: what every later test builds on — the state and runtime conformance suites, shared
// test resource types, and eventually-consistent assertions that wait on watches, never on sleeps.
export * from './assert-resources.js';
export * from './resources.js';
export * from './runtime-conformance.js';
export * from './state-conformance.js';
export * from './watch-reader.js';
