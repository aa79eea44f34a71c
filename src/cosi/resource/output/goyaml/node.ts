// YNode: the YAML tree the emitter writes, carrying the scalar style each value asks for.

/** The scalar style a node asks for; the emitter falls back (plain → single → double) when it cannot be honoured. */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

export interface YScalar {
  readonly kind: 'scalar';
  readonly value: string;
  readonly style: ScalarStyle;
  /** an explicit short tag such as "!!binary", written before the value */
  readonly tag?: string;
}

export interface YSeq {
  readonly kind: 'seq';
  readonly items: readonly YNode[];
  /** flow style ([a, b]); empty sequences are always written as [] */
  readonly flow?: boolean;
  readonly tag?: string;
}

export interface YMap {
  readonly kind: 'map';
  readonly entries: readonly (readonly [YNode, YNode])[];
  /** flow style ({a: b}); empty mappings are always written as {} */
  readonly flow?: boolean;
  readonly tag?: string;
}

export type YNode = YScalar | YSeq | YMap;

export const yScalar = (value: string, style: ScalarStyle = 'plain', tag?: string): YScalar =>
  tag === undefined ? { kind: 'scalar', value, style } : { kind: 'scalar', value, style, tag };

export const ySeq = (items: readonly YNode[], flow = false): YSeq => ({ kind: 'seq', items, flow });

export const yMap = (entries: readonly (readonly [YNode, YNode])[], flow = false): YMap => ({
  kind: 'map',
  entries,
  flow,
});

/**
 * yNodeScalar is a scalar built the way upstream builds yaml.Node values by hand (no tag, no style):
 * plain unless it spans lines. Metadata is written this way, so "3" or "true" stay unquoted.
 */
export const yNodeScalar = (value: string): YScalar =>
  yScalar(value, value.includes('\n') ? 'literal' : 'plain');
