// What `tty` gets: a pseudo-terminal needs a pty pair, which Keel does not make, so the container runs
// without a terminal. talosctl has put the user's terminal in raw mode, though: nothing echoes, Enter
// sends CR, Ctrl-C and Ctrl-D arrive as bytes. LineMode stands in for the kernel's cooked line
// discipline on the node's side: it echoes, edits a line until Enter, and turns ^C, ^D and ^\ into a
// signal or the end of input; output gets CR before LF. Full-screen programs still cannot work.

/** the first bytes a tty session gets, so nobody waits for a prompt that will not come */
export const NO_TERMINAL_NOTICE =
  'keel: no terminal for debug containers: lines are edited here and sent on Enter; ^C interrupts, ^D ends input; no prompt unless asked (sh -i)\r\n';

const SIGINT = 2;
const SIGQUIT = 3;

/** LineInput: what a chunk of the user's keys amounts to. */
export interface LineInput {
  /** complete lines for the container's stdin */
  readonly toContainer: Buffer;
  /** what the user's terminal should show */
  readonly echo: Buffer;
  readonly signals: readonly number[];
  /** ^D on an empty line: close stdin */
  readonly eof: boolean;
}

export class LineMode {
  #line: number[] = [];

  /** input reads raw key bytes. */
  input(keys: Buffer): LineInput {
    const out: number[] = [];
    const echo: number[] = [];
    const signals: number[] = [];
    let eof = false;
    for (const k of keys) {
      if (k === 0x0d || k === 0x0a) {
        out.push(...this.#line, 0x0a);
        echo.push(0x0d, 0x0a);
        this.#line = [];
      } else if (k === 0x7f || k === 0x08) {
        if (this.#line.pop() !== undefined) echo.push(0x08, 0x20, 0x08);
      } else if (k === 0x03 || k === 0x1c) {
        signals.push(k === 0x03 ? SIGINT : SIGQUIT);
        echo.push(0x5e, k === 0x03 ? 0x43 : 0x5c, 0x0d, 0x0a);
        this.#line = [];
      } else if (k === 0x04) {
        if (this.#line.length === 0) eof = true;
        else {
          out.push(...this.#line);
          this.#line = [];
        }
      } else {
        this.#line.push(k);
        echo.push(k);
      }
    }
    return { toContainer: Buffer.from(out), echo: Buffer.from(echo), signals, eof };
  }
}

/** crlf puts CR before each LF not already after one, as a terminal's output processing would. */
export function crlf(b: Buffer, prevCR = false): Buffer {
  const out: number[] = [];
  let cr = prevCR;
  for (const c of b) {
    if (c === 0x0a && !cr) out.push(0x0d);
    out.push(c);
    cr = c === 0x0d;
  }
  return Buffer.from(out);
}
