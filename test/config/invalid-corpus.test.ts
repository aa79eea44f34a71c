// Every file under invalid/ holds one mistake; its header names the error fragment it must produce.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/config/decoder/index.js';
import { type ConfigError, ConfigErrors } from '../../src/config/errors.js';
import { type Mode, validate } from '../../src/config/validate/index.js';

const dir = new URL('./invalid/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml.txt'))
  .sort();

// problems with a whole document (its kind, syntax, or a duplicate) have no field path
const documentLevel = ['yaml', 'type', 'missing-kind', 'missing-api-version', 'duplicate'];

interface Case {
  expect: string;
  mode: Mode;
  strict: boolean;
  text: string;
}

function parseCase(text: string): Case {
  const header = (key: string) => new RegExp(`^# ${key}: (.*)$`, 'm').exec(text)?.[1];
  const expected = header('expect');
  if (!expected) throw new Error('corpus file lacks an "# expect:" header');
  return {
    expect: expected,
    mode: (header('mode') as Mode | undefined) ?? 'metal',
    strict: header('strict') === 'true',
    text,
  };
}

/** problems decodes and validates, returning every error found. */
function problems(c: Case): readonly ConfigError[] {
  try {
    return validate(decode(c.text), { mode: c.mode, strict: c.strict }).errors;
  } catch (e) {
    if (e instanceof ConfigErrors) return e.errors;
    throw e;
  }
}

describe('invalid config corpus', () => {
  it('holds at least 100 configs, each with a distinct expected error', () => {
    expect(files.length).toBeGreaterThanOrEqual(100);
    const fragments = files.map((f) => parseCase(readFileSync(new URL(f, dir), 'utf8')).expect);
    expect(new Set(fragments).size).toBe(fragments.length);
  });

  it.each(files)('%s is rejected with its expected error', (file) => {
    const c = parseCase(readFileSync(new URL(file, dir), 'utf8'));
    const errors = problems(c);
    const hit = errors.find((e) => e.message.includes(c.expect));
    expect(hit, `errors were:\n${errors.map((e) => e.message).join('\n')}`).toBeDefined();
    // every error says where: a line, and a field path unless the whole document is at fault
    expect(hit!.line).toBeGreaterThan(0);
    expect(hit!.document).not.toBe('');
    if (hit!.path === '') expect(documentLevel).toContain(hit!.code);
  });
});
