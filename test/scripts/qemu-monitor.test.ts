// The human monitor's replies as scripts/lib/qemu.ts reads them; the fixtures are what QEMU 7.2 sent
// over its socket (captured), the echo redrawn a character at a time.
import { describe, expect, it } from 'vitest';
import { monitorReply, translatedBlocks } from '../../scripts/lib/qemu.js';

const ESC = String.fromCharCode(27);

/** echo is the monitor's echo of a typed command: each prefix redrawn over the last one */
const echo = (command: string) => {
  const redraws = [...command.slice(0, -1)].map(
    (_, i) => `${command.slice(0, i + 1)}${ESC}[K${`${ESC}[D`.repeat(i + 1)}`,
  );
  return `${redraws.join('')}${command}${ESC}[K\r\n`;
};

describe('monitorReply', () => {
  it('is the text between the echoed command and the next prompt', () => {
    const raw = `${echo('info version')}7.2.22Debian 1:7.2+dfsg-7+deb12u18+b3\r\n(qemu) `;
    expect(monitorReply(raw)).toBe('7.2.22Debian 1:7.2+dfsg-7+deb12u18+b3');
  });

  it('keeps a reply of several lines, without terminal sequences or carriage returns', () => {
    const raw = `${echo('info jit')}Translation buffer state:\r\ngen code size       4011187/1073659904\r\nTB count            7055\r\n(qemu) `;
    expect(monitorReply(raw)).toBe(
      'Translation buffer state:\ngen code size       4011187/1073659904\nTB count            7055',
    );
  });

  it('is empty for a command that prints nothing', () => {
    expect(monitorReply(`${echo('sendkey ctrl')}(qemu) `)).toBe('');
  });
});

describe('translatedBlocks', () => {
  it('reads the TB count of `info jit`', () => {
    expect(
      translatedBlocks(
        'Translation buffer state:\ngen code size       4011187/1073659904\nTB count            7055\nTB avg target size  18 max=1758 bytes',
      ),
    ).toBe(7055);
  });

  it('fails, showing the reply, when there is none (not a TCG machine)', () => {
    expect(() => translatedBlocks('this command is not available with KVM')).toThrow(
      /no TB count:\nthis command/,
    );
  });
});
