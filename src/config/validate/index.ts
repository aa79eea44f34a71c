// Config validation: per-document rules, rules across documents, runtime modes and strict mode.
// Every finding names its document, field path and line.
export { type Mode, modes, type RuleContext } from './context.js';
export { assertValid, type ValidateOptions, type ValidationResult, validate } from './validate.js';
