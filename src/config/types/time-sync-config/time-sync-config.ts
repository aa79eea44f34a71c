// TimeSyncConfig: NTP servers or PTP devices and the boot timeout (replaces machine.time).
import { parseDuration } from '../../validate/formats.js';
import { defineDocument, type TypedHeader } from '../definition.js';
import { bool, list, str, struct, typedHeader } from '../schema.js';

export interface TimeSyncConfig extends TypedHeader {
  enabled?: boolean;
  bootTimeout?: string;
  ntp?: { servers?: string[]; useNTS?: boolean };
  ptp?: { devices?: string[] };
}

export const TimeSyncConfigDefinition = defineDocument<TimeSyncConfig>({
  kind: 'TimeSyncConfig',
  named: false,
  schema: struct({
    ...typedHeader,
    enabled: bool,
    bootTimeout: str,
    ntp: struct({ servers: list(str), useNTS: bool }),
    ptp: struct({ devices: list(str) }),
  }),
  validate(doc, ctx) {
    if (doc.bootTimeout !== undefined && parseDuration(doc.bootTimeout) === undefined)
      ctx.error('bootTimeout', `invalid duration ${JSON.stringify(doc.bootTimeout)}`);
    doc.ntp?.servers?.forEach((s, i) => {
      if (s.trim() === '') ctx.error(`ntp.servers[${i}]`, 'server must not be empty');
    });
    doc.ptp?.devices?.forEach((d, i) => {
      if (!d.startsWith('/dev/')) ctx.error(`ptp.devices[${i}]`, `${JSON.stringify(d)} is not a /dev path`);
    });
    if (doc.ntp?.servers?.length && doc.ptp?.devices?.length)
      ctx.error('ptp', 'ntp and ptp are mutually exclusive');
  },
});
