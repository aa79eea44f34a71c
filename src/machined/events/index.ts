// machined/events: the machine events bus (sequence, phase, task and service events with xids and actor ids).
// It backs the machine API Events stream: bounded history, tails by count, id or age, and live follow.
export * from './bus.js';
export * from './errors.js';
export * from './event.js';
export * from './xid.js';
