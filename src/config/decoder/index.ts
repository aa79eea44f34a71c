// The config decoder: multi-document YAML to typed documents, every error with its line.
// Unknown keys, missing kind/apiVersion, duplicates and conflicting documents are rejected.
export { type Decoded, type DecodeOptions, decode, decodeDocuments } from './decode.js';
