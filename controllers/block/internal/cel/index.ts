// controllers/block/internal/cel: the CEL environments of volume locators and disk selectors, as
// upstream's celenv declares them: typed `volume` and `disk` variables, `system_disk`, unit constants.
export * from './environment.js';
export * from './expression.js';
