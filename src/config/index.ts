// src/config: the machine config — documents, decoder, encoder, validation, patches and generation.
// Controllers read a Config through accessors(); typed documents win over the v1alpha1 fields they replace.
export { accessors, DEFAULT_NTP_SERVER, type MachineAccessors, type MachineType } from './accessors.js';
export {
  type Config,
  documentOf,
  documentsOf,
  newConfig,
  v1alpha1Document,
  v1alpha1Of,
} from './container.js';
export { decode, decodeDocuments } from './decoder/index.js';
export { MAX_CONFIG_BYTES } from './decoder/limits.js';
export { configText } from './decoder/text.js';
export {
  type ConfigDocument,
  type DocumentTypes,
  type Kind,
  type LineIndex,
  label,
  lineOf,
} from './document.js';
export { encode, encodeDocument } from './encoder.js';
export {
  ConfigError,
  type ConfigErrorCode,
  ConfigErrors,
  formatErrors,
  isConflictError,
  isDecodeError,
  isPatchError,
} from './errors.js';
export * from './generate/index.js';
export * from './patch/index.js';
export * from './types/index.js';
export * from './validate/index.js';
