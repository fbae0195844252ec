// Where a profiled server's time went: `npx tsx bench/cpuprofile.ts FILE.cpuprofile [--last=MS] [--top=N]
// [--callers=REGEX]` sums the samples of a `--cpu-prof` profile (BENCH_SERVER_ARGS, lib.ts) by function, its own
// time (self) and the time with what it called (total, each function once per stack), and by file. `--last` keeps
// the profile's last MS milliseconds (the load, not the start-up and the setup); `--callers` lists the stacks
// leading to the functions whose name and place match.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { root } from "./lib.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** A function's file: the repository's relative, node_modules' as `nm/…`, V8's own (GC, idle) as `(native)`. */
const fileOf = ({ callFrame: frame }: ProfileNode) =>
  frame.url ? frame.url.replace(pathToFileURL(root).href, "").replace(/.*node_modules\//, "nm/") : "(native)";
/** A function as `name file:line`. */
const nameOf = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"} ${fileOf(node)}:${node.callFrame.lineNumber + 1}`;

export function summarize(profile: Profile, options: { lastMs?: number; top?: number; callers?: RegExp } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // A sample's time is the delta to the next one; the window is the last `lastMs` of the profile.
  const times: number[] = [];
  let clock = profile.startTime;
  for (const delta of profile.timeDeltas) {
    clock += delta;
    times.push(clock);
  }
  const from = clock - (options.lastMs ?? Number.POSITIVE_INFINITY) * 1000;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  const callers = new Map<string, number>();
  let sampled = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, index) => {
    if ((times[index] ?? 0) < from) return;
    const us = profile.timeDeltas[index + 1] ?? 0;
    sampled += us;
    const leaf = byId.get(id) as ProfileNode;
    add(self, nameOf(leaf), us);
    add(files, fileOf(leaf), us);
    const seen = new Set<string>();
    let matched = false;
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = nameOf(byId.get(at) as ProfileNode);
      if (!seen.has(name)) add(total, name, us);
      seen.add(name);
      if (!matched && options.callers?.test(name)) {
        matched = true;
        const stack: string[] = [];
        for (let up: number | undefined = at; up !== undefined && stack.length < 5; up = parentOf.get(up))
          stack.push(nameOf(byId.get(up) as ProfileNode));
        add(callers, stack.join("  <-  "), us);
      }
    }
  });
  const top = options.top ?? 40;
  const table = (title: string, map: Map<string, number>) =>
    [
      `== ${title}`,
      ...[...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(
          ([name, us]) =>
            `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / sampled).toFixed(1).padStart(5)} %  ${name}`,
        ),
    ].join("\n");
  return [
    `${(sampled / 1000).toFixed(0)} ms sampled`,
    table("self", self),
    table("total", total),
    table("self by file", files),
    ...(options.callers ? [table(`stacks to ${options.callers.source}`, callers)] : []),
  ].join("\n\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, ...flags] = process.argv.slice(2);
  if (!file)
    throw new Error("usage: npx tsx bench/cpuprofile.ts FILE.cpuprofile [--last=MS] [--top=N] [--callers=REGEX]");
  const flag = (name: string) => flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);
  const callers = flag("callers");
  console.log(
    summarize(JSON.parse(readFileSync(file, "utf8")) as Profile, {
      lastMs: flag("last") === undefined ? undefined : Number(flag("last")),
      top: flag("top") === undefined ? undefined : Number(flag("top")),
      callers: callers === undefined ? undefined : new RegExp(callers),
    }),
  );
}
