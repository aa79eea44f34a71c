// google.protobuf.Timestamp and Duration ↔ milliseconds, the unit Keel holds times and durations in.

/** ProtoTime is the {seconds, nanos} pair both well-known types carry. */
export interface ProtoTime {
  seconds: number;
  nanos: number;
}

/** timestampFromMs splits a point in time; nanos is never negative, as Timestamp requires. */
export function timestampFromMs(ms: number): ProtoTime {
  const seconds = Math.floor(ms / 1000);
  return carry(seconds, Math.round((ms - seconds * 1000) * 1e6));
}

/** durationFromMs splits a span; seconds and nanos share the sign, as Duration requires. */
export function durationFromMs(ms: number): ProtoTime {
  const seconds = Math.trunc(ms / 1000);
  return carry(seconds, Math.round((ms - seconds * 1000) * 1e6));
}

/** carry keeps |nanos| below one second when rounding a fraction reached it. */
function carry(seconds: number, nanos: number): ProtoTime {
  if (nanos >= 1e9) return { seconds: seconds + 1, nanos: nanos - 1e9 };
  if (nanos <= -1e9) return { seconds: seconds - 1, nanos: nanos + 1e9 };
  return { seconds, nanos };
}

/** msFromProtoTime joins the pair back; sub-millisecond nanos stay as a fraction. */
export const msFromProtoTime = (seconds: number, nanos: number): number => seconds * 1000 + nanos / 1e6;
