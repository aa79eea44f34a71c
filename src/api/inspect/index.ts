// src/api/inspect: inspect.InspectService, the controller runtime's dependency graph.
// It reads the graph through a function, so the API never reaches into the controllers.
export { dependenciesHandler, edgeMessage } from './dependencies.js';
