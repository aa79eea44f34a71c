// src/api/time: time.TimeService handlers.
// Time answers the local clock; TimeCheck needs an NTP client Keel does not have yet.
export { timeCheckHandler, timeHandler } from './time.js';
