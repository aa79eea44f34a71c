// Checks that every option a kernel-config fragment asks for is what the final .config holds.
// usage: node scripts/kernel-config-check.mjs <.config> <fragment>...
import { readFileSync } from 'node:fs';

const parse = (text) => {
  const options = new Map();
  for (const line of text.split('\n')) {
    const set = /^(CONFIG_\w+)=(.*)$/.exec(line);
    if (set) options.set(set[1], set[2] === 'n' ? 'n' : set[2]);
    const unset = /^# (CONFIG_\w+) is not set$/.exec(line);
    if (unset) options.set(unset[1], 'n');
  }
  return options;
};

const [configPath, ...fragments] = process.argv.slice(2);
const final = parse(readFileSync(configPath, 'utf8'));
const wrong = [];
for (const fragment of fragments) {
  for (const [name, want] of parse(readFileSync(fragment, 'utf8'))) {
    const got = final.get(name) ?? 'n';
    if (got !== want) wrong.push(`${fragment}: ${name} wanted ${want}, got ${got}`);
  }
}
if (wrong.length > 0) {
  console.error(
    `kernel config: ${wrong.length} option(s) did not survive olddefconfig:\n${wrong.join('\n')}`,
  );
  process.exit(1);
}
console.error(`kernel config: all ${fragments.length} fragment(s) applied`);
