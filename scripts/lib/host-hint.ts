// The node's console names its own address (10.0.2.15 in QEMU), which the host cannot reach; `make run`
// forwards the API to a loopback port instead, so it shows each hinted command as it works from the host.

/** COMMAND finds a hinted `apply-config --insecure` command and the node address it names. */
const COMMAND = /\b((?:keelctl|talosctl) apply-config --insecure .*?(?:--nodes|-n)[ =])(\S+)(.*)$/;

/** hostHint rewrites a console line's apply-config hint to the forwarded port; undefined for other lines. */
export function hostHint(line: string, port: number): string | undefined {
  const m = COMMAND.exec(line);
  if (!m) return undefined;
  return `run: from this host: ${m[1]}127.0.0.1:${port}${m[3]}`;
}
