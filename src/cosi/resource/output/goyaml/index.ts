// Go-compatible YAML: the byte-exact yaml.v3 emitter, its resolver, and decoding into Go-like values.
// What talosctl and yaml_spec consumers see is produced here.
export { type GoDecodeOptions, GoTime, type GoValue, goValue } from './decode.js';
export { emitYAML } from './emitter.js';
export { YAMLError, type YAMLErrorCode } from './errors.js';
export { formatGoG, formatJSONFloat, formatYAMLFloat } from './float.js';
export { nodeFromValue, stringNode } from './from-value.js';
export {
  type ScalarStyle,
  type YMap,
  type YNode,
  type YScalar,
  type YSeq,
  yMap,
  yNodeScalar,
  yScalar,
  ySeq,
} from './node.js';
export { at, type Position, parseYAML, positionOf } from './parse.js';
export {
  type GoScalar,
  type GoTag,
  isBase60Float,
  isGoTimestamp,
  isOldBool,
  needsQuotes,
  type Resolved,
  resolvePlain,
} from './resolve.js';
export { compareUTF8, goKeyLess, type MapKey, sortGoKeys } from './sort-keys.js';
export { formatRFC3339, formatRFC3339Nano, goTimeText, parseRFC3339 } from './time.js';
