// yaml.v3's scalar analysis: which styles can carry a value unchanged (yaml_emitter_analyze_scalar).

export interface Analysis {
  readonly multiline: boolean;
  readonly flowPlain: boolean;
  readonly blockPlain: boolean;
  readonly singleQuoted: boolean;
  readonly block: boolean;
}

export const isBreak = (c: number | undefined) =>
  c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
export const isBlank = (c: number | undefined) => c === 0x20 || c === 0x09;
export const isBlankZ = (c: number | undefined) => c === undefined || c === 0 || isBlank(c) || isBreak(c);
/** yaml.v3's is_printable: characters beyond the BMP count as special, so they end up escaped */
export const isPrintable = (c: number) =>
  c === 0x0a ||
  (c >= 0x20 && c <= 0x7e) ||
  (c >= 0xa0 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

export const codePoints = (s: string): number[] => {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
};

export const utf8Length = (cps: readonly number[]): number =>
  cps.reduce((n, c) => n + (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4), 0);

const FIRST_INDICATORS = new Set([...'#,[]{}&*!|>\'"%@`'].map((c) => c.codePointAt(0)!));
const FLOW_INDICATORS = new Set([...',?[]{}'].map((c) => c.codePointAt(0)!));

/** analyze is yaml_emitter_analyze_scalar: which styles can carry the value unchanged. */
export function analyze(cps: readonly number[]): Analysis {
  const n = cps.length;
  if (n === 0)
    return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  let blockInd = false;
  let flowInd = false;
  let lineBreaks = false;
  let special = false;
  let tabs = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let prevSpace = false;
  let prevBreak = false;
  let precededByWs = true;
  if (n >= 3 && (cps[0] === 0x2d || cps[0] === 0x2e) && cps[1] === cps[0] && cps[2] === cps[0]) {
    blockInd = true;
    flowInd = true;
  }
  for (let i = 0; i < n; i++) {
    const c = cps[i]!;
    const followedByWs = i + 1 >= n || isBlank(cps[i + 1]);
    if (i === 0) {
      if (FIRST_INDICATORS.has(c)) {
        flowInd = true;
        blockInd = true;
      } else if (c === 0x3f || c === 0x3a) {
        flowInd = true;
        if (followedByWs) blockInd = true;
      } else if (c === 0x2d && followedByWs) {
        flowInd = true;
        blockInd = true;
      }
    } else if (FLOW_INDICATORS.has(c)) flowInd = true;
    else if (c === 0x3a) {
      flowInd = true;
      if (followedByWs) blockInd = true;
    } else if (c === 0x23 && precededByWs) {
      flowInd = true;
      blockInd = true;
    }
    if (c === 0x09) tabs = true;
    else if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === n - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === n - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlankZ(c);
  }
  let flowPlain = true;
  let blockPlain = true;
  let singleQuoted = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    flowPlain = false;
    blockPlain = false;
  }
  if (trailingSpace) block = false;
  if (breakSpace) {
    flowPlain = false;
    blockPlain = false;
    singleQuoted = false;
  }
  if (spaceBreak || tabs || special) {
    flowPlain = false;
    blockPlain = false;
    singleQuoted = false;
  }
  if (spaceBreak || special) block = false;
  if (lineBreaks) {
    flowPlain = false;
    blockPlain = false;
  }
  if (flowInd) flowPlain = false;
  if (blockInd) blockPlain = false;
  return { multiline: lineBreaks, flowPlain, blockPlain, singleQuoted, block };
}
