// The runtime's turns on their own, for code that gives way to clients without running controllers
// itself (the API holds turns while a connection is served): importing them from here leaves the
// runtime's modules out of a maintenance API's start.
export { holdTurns, nextTurn } from './internal/turns.js';
