// ID queries: an unanchored regular expression over resource IDs.

export interface IDQuery {
  readonly regexp: RegExp;
}

/** idRegexpMatch compiles the pattern once; an invalid pattern throws a TypeError naming it. */
export function idRegexpMatch(pattern: string | RegExp): IDQuery {
  if (pattern instanceof RegExp) return { regexp: pattern };
  try {
    return { regexp: new RegExp(pattern) };
  } catch (cause) {
    throw new TypeError(`invalid id regexp ${JSON.stringify(pattern)}`, { cause });
  }
}

export const matchID = (id: string, q: IDQuery | undefined): boolean => !q || q.regexp.test(id);
