// Machine config: decode + validate of a typical talosctl-generated controlplane.yaml, and re-encoding.
import { readFileSync } from 'node:fs';
import { decode } from '../../../src/config/decoder/index.js';
import { encode } from '../../../src/config/encoder.js';
import { validate } from '../../../src/config/validate/index.js';
import { best, figure, group, rate } from '../harness.js';

const text = readFileSync(new URL('../../config/fixtures/controlplane.yaml.txt', import.meta.url), 'utf8');
const N = 500;
const micros = (opsPerSecond: number) => 1e6 / opsPerSecond;

await group('config decode + validate, controlplane.yaml (target ≤ 2,000 µs per config)', async () => {
  // warm up the JIT so the figures describe steady state, as a running machined would see it
  for (let i = 0; i < 50; i++) validate(decode(text), { mode: 'metal' });
  const full = await best(5, () =>
    rate(N, () => {
      const { errors } = validate(decode(text), { mode: 'metal' });
      if (errors.length > 0) throw new Error(errors[0]!.message);
    }),
  );
  figure('decode + validate (metal)', micros(full), 'µs/config', { op: '<=', value: 2_000 });
  figure('decode only', micros(await best(5, () => rate(N, () => decode(text)))), 'µs/config');
  const cfg = decode(text);
  figure(
    'validate only',
    micros(await best(5, () => rate(N, () => validate(cfg, { mode: 'metal' })))),
    'µs/config',
  );
  figure('encode', micros(await best(5, () => rate(N, () => encode(cfg)))), 'µs/config');
});
