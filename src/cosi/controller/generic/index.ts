// cosi/controller/generic: ready-made controllers driven by functions (transform, qtransform,
// cleanup, destroy); most domain controllers are one of these plus a pure function.
export * from './cleanup.js';
export * from './destroy.js';
export * from './qtransform.js';
export * from './transform.js';
