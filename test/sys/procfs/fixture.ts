// Captured kernel files for the parser tests: read by name from the fixtures folder beside this file.
import { readFileSync } from 'node:fs';

export const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
