// Endpoint strings as talosconfig and -e carry them: host, host:port, IPv6 with or without brackets.

/** The apid port, used when an endpoint names none. */
export const API_PORT = 50000;

/** endpointAddress adds the default port unless the endpoint has one. */
export function endpointAddress(endpoint: string): string {
  if (/^\[.*\]:\d+$/.test(endpoint)) return endpoint;
  if (/^\[.*\]$/.test(endpoint)) return `${endpoint}:${API_PORT}`;
  const colons = endpoint.split(':').length - 1;
  if (colons === 1) return endpoint; // host:port
  if (colons > 1) return `[${endpoint}]:${API_PORT}`; // a bare IPv6 address
  return `${endpoint}:${API_PORT}`;
}
