// Go's text/tabwriter with left alignment and space padding, the layout talosctl's table output uses.
//
// Text is split into lines and tab-terminated cells; the text after a line's last tab is not part
// of any column. A column block is a run of consecutive lines that have a cell in that column; its
// width is the widest cell (in runes) plus the padding, and narrower cells are padded with spaces.
// The \v and \f controls and escaping are not interpreted.

export interface TabwriterOptions {
  readonly minWidth?: number;
  readonly padding?: number;
}

const runes = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** tabwrite lays out text the way a flushed tabwriter.Writer does. */
export function tabwrite(text: string, { minWidth = 0, padding = 3 }: TabwriterOptions = {}): string {
  // every line but the one after the final newline ends in a newline, as in the Go writer
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  let out = '';

  const writeLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const line = lines[i]!;
      line.forEach((cell, j) => {
        out += cell;
        if (j < widths.length) out += ' '.repeat(widths[j]! - runes(cell));
      });
      if (i + 1 < lines.length) out += '\n';
    }
  };

  const format = (line0: number, line1: number) => {
    const column = widths.length;
    for (let i = line0; i < line1; i++) {
      if (column >= lines[i]!.length - 1) continue;
      // a cell in this column starts a block: flush the lines before it at the current widths
      writeLines(line0, i);
      line0 = i;
      let width = minWidth;
      for (; i < line1; i++) {
        const line = lines[i]!;
        if (column >= line.length - 1) break;
        width = Math.max(width, runes(line[column]!) + padding);
      }
      widths.push(width);
      format(line0, i);
      widths.pop();
      line0 = i;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out;
}
