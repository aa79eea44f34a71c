// emitYAML writes a YNode tree as Go's yaml.v3 encoder does: 4-space indent, no line folding.
//
// This is a port of the parts of yaml.v3's emitter that block documents use: the style fallbacks
// chosen from the scalar analysis (plain → single → double, literal → double), indentation
// (sequences under a key are indented, entries of a sequence indent by two), and the plain,
// quoted, literal and folded writers. Comments, anchors and document markers are not produced.
import {
  type Analysis,
  analyze,
  codePoints,
  isBlank,
  isBlankZ,
  isBreak,
  isPrintable,
  utf8Length,
} from './analyze.js';
import type { ScalarStyle, YMap, YNode, YScalar, YSeq } from './node.js';

const BEST_INDENT = 4;

interface Ctx {
  /** the node is a block sequence entry, so its content indents by two (past "- ") */
  readonly seqItem?: boolean;
  /** the node is a mapping key written without "? " */
  readonly simpleKey?: boolean;
}

const ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

const hex = (c: number, width: number) => c.toString(16).toUpperCase().padStart(width, '0');

/** tagParts splits a short tag into the handle and suffix yaml.v3 writes ("!!binary" → "!!", "binary"). */
function tagParts(tag: string): { handle: string; suffix: string } {
  if (tag.startsWith('!!')) return { handle: '!!', suffix: tag.slice(2) };
  if (tag.startsWith('!')) return { handle: '!', suffix: tag.slice(1) };
  return { handle: '', suffix: tag };
}

class Emitter {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;
  indent = -1;
  readonly indents: number[] = [];
  flowLevel = 0;

  put(ch: string): void {
    this.out += ch;
    this.column++;
  }

  putCode(c: number): void {
    this.out += String.fromCodePoint(c);
    this.column++;
  }

  putBreak(): void {
    this.out += '\n';
    this.column = 0;
    this.indention = true;
  }

  writeBreak(c: number): void {
    if (c === 0x0a) {
      this.putBreak();
      return;
    }
    this.out += String.fromCodePoint(c);
    this.column = 0;
    this.indention = true;
  }

  writeIndicator(ind: string, needWs: boolean, isWs: boolean, isIndention: boolean): void {
    if (needWs && !this.whitespace) this.put(' ');
    this.out += ind;
    this.column += ind.length;
    this.whitespace = isWs;
    this.indention = this.indention && isIndention;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace))
      this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
  }

  increaseIndent(flow: boolean, seqItem: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (seqItem) this.indent += 2;
    else this.indent = BEST_INDENT * Math.floor((this.indent + BEST_INDENT) / BEST_INDENT);
  }

  popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  writeTag(tag: string): void {
    const { handle, suffix } = tagParts(tag);
    if (handle === '') {
      this.writeIndicator('!<', true, false, false);
      this.out += suffix;
      this.column += suffix.length;
      this.writeIndicator('>', false, false, false);
      return;
    }
    if (!this.whitespace) this.put(' ');
    this.out += handle + suffix;
    this.column += handle.length + suffix.length;
    this.whitespace = false;
    this.indention = false;
  }

  node(n: YNode, ctx: Ctx): void {
    if (n.kind === 'scalar') {
      this.scalar(n, ctx);
      return;
    }
    if (n.tag !== undefined) this.writeTag(n.tag);
    if (n.kind === 'seq') {
      if (this.flowLevel > 0 || n.flow || n.items.length === 0) this.flowSeq(n, ctx);
      else this.blockSeq(n, ctx);
    } else if (this.flowLevel > 0 || n.flow || n.entries.length === 0) this.flowMap(n, ctx);
    else this.blockMap(n, ctx);
  }

  /** simpleKey is yaml_emitter_check_simple_key: one line, at most 128 bytes, or an empty collection. */
  simpleKey(k: YNode): boolean {
    const tagLength = k.tag === undefined ? 0 : k.tag.length;
    if (k.kind === 'scalar') {
      const cps = codePoints(k.value);
      return !analyze(cps).multiline && tagLength + utf8Length(cps) <= 128;
    }
    const empty = k.kind === 'seq' ? k.items.length === 0 : k.entries.length === 0;
    return empty && tagLength <= 128;
  }

  blockSeq(n: YSeq, ctx: Ctx): void {
    this.increaseIndent(false, ctx.seqItem === true);
    for (const item of n.items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, { seqItem: true });
    }
    this.popIndent();
  }

  blockMap(n: YMap, ctx: Ctx): void {
    this.increaseIndent(false, ctx.seqItem === true);
    for (const [k, v] of n.entries) {
      this.writeIndent();
      if (this.simpleKey(k)) {
        this.node(k, { simpleKey: true });
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(k, {});
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(v, {});
    }
    this.popIndent();
  }

  flowSeq(n: YSeq, ctx: Ctx): void {
    this.writeIndicator('[', true, true, false);
    this.increaseIndent(true, ctx.seqItem === true);
    this.flowLevel++;
    n.items.forEach((item, i) => {
      if (i > 0) this.writeIndicator(',', false, false, false);
      this.node(item, {});
    });
    this.flowLevel--;
    this.popIndent();
    this.writeIndicator(']', false, false, false);
  }

  flowMap(n: YMap, ctx: Ctx): void {
    this.writeIndicator('{', true, true, false);
    this.increaseIndent(true, ctx.seqItem === true);
    this.flowLevel++;
    n.entries.forEach(([k, v], i) => {
      if (i > 0) this.writeIndicator(',', false, false, false);
      if (this.simpleKey(k)) {
        this.node(k, { simpleKey: true });
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, false);
        this.node(k, {});
        this.writeIndicator(':', true, false, false);
      }
      this.node(v, {});
    });
    this.flowLevel--;
    this.popIndent();
    this.writeIndicator('}', false, false, false);
  }

  /** selectStyle is yaml_emitter_select_scalar_style for untagged or tagged scalars. */
  selectStyle(n: YScalar, cps: readonly number[], a: Analysis, ctx: Ctx): ScalarStyle {
    let style = n.style;
    if (ctx.simpleKey && a.multiline) style = 'double';
    if (style === 'plain') {
      if ((this.flowLevel > 0 && !a.flowPlain) || (this.flowLevel === 0 && !a.blockPlain)) style = 'single';
      if (cps.length === 0 && (this.flowLevel > 0 || ctx.simpleKey)) style = 'single';
    }
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if ((style === 'literal' || style === 'folded') && (!a.block || this.flowLevel > 0 || ctx.simpleKey))
      style = 'double';
    return style;
  }

  scalar(n: YScalar, ctx: Ctx): void {
    const cps = codePoints(n.value);
    const style = this.selectStyle(n, cps, analyze(cps), ctx);
    if (n.tag !== undefined) this.writeTag(n.tag);
    this.increaseIndent(true, ctx.seqItem === true);
    switch (style) {
      case 'plain':
        this.plain(cps, n.value);
        break;
      case 'single':
        this.single(cps, n.value);
        break;
      case 'double':
        this.double(cps);
        break;
      case 'literal':
        this.literal(cps);
        break;
      case 'folded':
        this.folded(cps);
        break;
    }
    this.popIndent();
  }

  /** append writes a run without breaks in one go; column counts code points, as yaml.v3 counts characters */
  append(cps: readonly number[], text: string): void {
    this.out += text;
    this.column += cps.length;
  }

  plain(cps: readonly number[], text: string): void {
    if (cps.length > 0 && !this.whitespace) this.put(' ');
    if (!cps.some(isBreak)) {
      this.append(cps, text);
      if (cps.length > 0) this.whitespace = false;
      this.indention = false;
      return;
    }
    let breaks = false;
    for (const c of cps) {
      if (c === 0x20) this.putCode(c);
      else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCode(c);
        this.indention = false;
        breaks = false;
      }
    }
    if (cps.length > 0) this.whitespace = false;
    this.indention = false;
  }

  single(cps: readonly number[], text: string): void {
    this.writeIndicator("'", true, false, false);
    if (!cps.some(isBreak)) {
      const quoted = text.replaceAll("'", "''");
      this.out += quoted;
      this.column += cps.length + (quoted.length - text.length);
      this.writeIndicator("'", false, false, false);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    let breaks = false;
    for (const c of cps) {
      if (c === 0x20) this.putCode(c);
      else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.putCode(c);
        this.indention = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  double(cps: readonly number[]): void {
    this.writeIndicator('"', true, false, false);
    let text = '';
    for (const c of cps) {
      if (!isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        const short = ESCAPES.get(c);
        if (short !== undefined) text += `\\${short}`;
        else if (c <= 0xff) text += `\\x${hex(c, 2)}`;
        else if (c <= 0xffff) text += `\\u${hex(c, 4)}`;
        else text += `\\U${hex(c, 8)}`;
      } else text += String.fromCodePoint(c);
    }
    // every character written, escapes included, is ASCII or one code point
    this.out += text;
    this.column += [...text].length;
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  blockHints(cps: readonly number[]): void {
    const n = cps.length;
    if (n > 0 && (cps[0] === 0x20 || isBreak(cps[0])))
      this.writeIndicator(String(BEST_INDENT), false, false, false);
    let chomp = '';
    if (n === 0 || !isBreak(cps[n - 1])) chomp = '-';
    else if (n === 1 || isBreak(cps[n - 2])) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
  }

  literal(cps: readonly number[]): void {
    this.writeIndicator('|', true, false, false);
    this.blockHints(cps);
    // no break here: the first line's indent (or a leading break, which yaml.v3 thereby loses) ends the header
    this.whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        this.writeBreak(c);
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putCode(c);
        this.indention = false;
        breaks = false;
      }
    }
  }

  folded(cps: readonly number[]): void {
    this.writeIndicator('>', true, false, false);
    this.blockHints(cps);
    this.whitespace = true;
    let breaks = true;
    let leadingSpaces = true;
    for (const c of cps) {
      if (isBreak(c)) {
        if (!breaks && !leadingSpaces && c === 0x0a) {
          // yaml.v3 looks for the following non-break from the start of the value, not from here
          let k = 0;
          while (isBreak(cps[k])) k++;
          if (!isBlankZ(cps[k])) this.putBreak();
        }
        this.writeBreak(c);
        breaks = true;
      } else {
        if (breaks) {
          this.writeIndent();
          leadingSpaces = isBlank(c);
        }
        this.putCode(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** emitYAML renders one document, ending in a newline as yaml.Marshal's output does. */
export function emitYAML(root: YNode): string {
  const e = new Emitter();
  e.node(root, {});
  e.writeIndent();
  return e.out;
}
