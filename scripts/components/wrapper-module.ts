// The go.mod of a component's throw-away wrapper module. A wrapper sees none of its modules' own replace and
// godebug directives (only a main module's count), so two are carried over from the first module's go.mod:
// its godebug settings, which set the runtime defaults its own build would have (Kubernetes keeps
// `default=go1.24`), and, when asked, its replaces into its own tree (Kubernetes' staging modules, which it
// requires at v0.0.0), each turned into the same module at a published version.

/** localReplaces lists the modules a go.mod replaces with a directory (`=> ./path`), in its order. */
export function localReplaces(gomod: string): string[] {
  return directives(gomod, 'replace').flatMap((d) => {
    const m = /^(\S+)(?:\s+\S+)?\s+=>\s+(\.{1,2}\/\S*)$/.exec(d);
    return m ? [m[1]!] : [];
  });
}

/** godebugs lists a go.mod's godebug settings (key=value), in its order. */
export const godebugs = (gomod: string): string[] => directives(gomod, 'godebug');

export interface WrapperModule {
  /** the wrapper's module path */
  readonly module: string;
  /** `go env GOVERSION` without its `go` */
  readonly go: string;
  /** the first module's go.mod */
  readonly first: string;
  /** the version its local replaces are required at instead, if it has any to follow */
  readonly replaceLocal?: string;
}

/** wrapperGoMod writes the wrapper's go.mod; `go get` then adds the requirements. */
export function wrapperGoMod(w: WrapperModule): string {
  let out = `module ${w.module}\n\ngo ${w.go}\n`;
  const debug = godebugs(w.first);
  if (debug.length) out += `\ngodebug (\n${debug.map((d) => `\t${d}\n`).join('')})\n`;
  if (w.replaceLocal) {
    const mods = localReplaces(w.first);
    if (mods.length)
      out += `\nreplace (\n${mods.map((m) => `\t${m} => ${m} ${w.replaceLocal}\n`).join('')})\n`;
  }
  return out;
}

/** directives returns the bodies of a go.mod's `verb` lines, whether single or in a ( ) block */
function directives(gomod: string, verb: string): string[] {
  const out: string[] = [];
  let block = false;
  for (const raw of gomod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (block) {
      if (line === ')') block = false;
      else if (line) out.push(line);
      continue;
    }
    if (line === `${verb} (`) block = true;
    else if (line.startsWith(`${verb} `)) out.push(line.slice(verb.length + 1).trim());
  }
  return out;
}
