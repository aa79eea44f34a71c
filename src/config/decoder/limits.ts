// The bounds on what one config stream may make the decoder do. A node decodes whatever its API is sent,
// so the work must be bounded by the input's size, not by what the input makes of itself: every cap
// below is checked before or while decoding, and each ends in one error naming it.

/** the largest config stream decoded, in bytes: generated configs are ~30 KiB, inline manifests included */
export const MAX_CONFIG_BYTES = 4 << 20;

/** tooLarge is the detail of a stream of `bytes` over MAX_CONFIG_BYTES, said the same wherever it is caught */
export const tooLarge = (bytes: number): string =>
  `is ${bytes} bytes, over the limit of ${MAX_CONFIG_BYTES} bytes (4 MiB)`;

/** the most documents in one stream (a generated config has a handful; a large multi-doc one, dozens) */
export const MAX_DOCUMENTS = 256;

/**
 * the most nodes the stream's aliases may expand to, counted as the schema walk visits them: a few
 * kilobytes of nested aliases otherwise expand to billions (upstream's yaml.v3 refuses "excessive
 * aliasing" likewise)
 */
export const MAX_ALIAS_NODES = 10_000;

/** the most errors listed one by one; the rest are counted */
export const MAX_LISTED_ERRORS = 20;

/** the longest detail of one error, in characters: a parser's excerpt of a long token is cut */
export const MAX_ERROR_DETAIL = 200;
