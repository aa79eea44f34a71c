import { describe, expect, it } from 'vitest';
import { crlf, LineMode } from '../../../src/api/debug/terminal.js';

describe('the line mode a tty session gets', () => {
  it('echoes and edits a line, sends it on Enter', () => {
    const m = new LineMode();
    const a = m.input(Buffer.from('lx\x7fs'));
    expect(a.toContainer.toString()).toBe('');
    expect(a.echo.toString()).toBe('lx\b \bs');
    const b = m.input(Buffer.from('\r'));
    expect(b.toContainer.toString()).toBe('ls\n');
    expect(b.echo.toString()).toBe('\r\n');
  });

  it('turns ^C into SIGINT and drops the line; ^D on an empty line ends input', () => {
    const m = new LineMode();
    const c = m.input(Buffer.from('sleep 9\x03'));
    expect(c.signals).toEqual([2]);
    expect(m.input(Buffer.from('\r')).toContainer.toString()).toBe('\n');
    expect(m.input(Buffer.from('\x04')).eof).toBe(true);
  });

  it('puts CR before LF in the output, once', () => {
    expect(crlf(Buffer.from('a\nb\r\n')).toString()).toBe('a\r\nb\r\n');
    expect(crlf(Buffer.from('\nx'), true).toString()).toBe('\nx');
  });
});
