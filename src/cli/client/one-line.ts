// A node's refusal as one line: upstream's multierror layout ("2 errors occurred:\n\t* a\n\t* b") reads
// "2 errors occurred: a; b", and any other line break a space, so an error never spills over lines that
// a script reading stderr, or a user, would take for more than one failure.

/** oneLine folds a status message's lines into one. */
export const oneLine = (text: string): string =>
  text
    .replace(/:\s*\n\t\* /g, ': ')
    .replace(/\s*\n\t\* /g, '; ')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
