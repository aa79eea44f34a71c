// Node's fs errors carry the errno name in `code`; this narrows them without a cast at each call site.

/** isSysErrorLike tells whether `e` is a Node system error with one of `codes`. */
export const isSysErrorLike = (e: unknown, ...codes: string[]): boolean =>
  e instanceof Error &&
  typeof (e as NodeJS.ErrnoException).code === 'string' &&
  codes.includes((e as NodeJS.ErrnoException).code!);
