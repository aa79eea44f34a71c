// src/sys/ntp: an SNTP client (packet codec, one validated exchange, server name resolution) and the
// sync loop that corrects the clock from it through an injected adjtimex.
export * from './errors.js';
export * from './packet.js';
export * from './query.js';
export * from './resolve.js';
export * from './spike.js';
export * from './syncer.js';
