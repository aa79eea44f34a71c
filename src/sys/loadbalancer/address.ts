// Addresses as Go's net package writes them: "host:port", an IPv6 host in brackets.

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** joinHostPort is net.JoinHostPort: [::1]:6443, 10.0.0.1:6443, localhost:6443. */
export const joinHostPort = ({ host, port }: HostPort): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
