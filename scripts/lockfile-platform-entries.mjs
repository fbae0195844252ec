// The npm registry reached from these machines serves Biome's native binaries for Linux only; `npm install`
// then leaves the other platforms' optional packages out of package-lock.json, and `npm ci` refuses a lock
// file that misses them. This puts the missing entries back with their os/cpu/libc, so npm skips them on
// platforms they are not for without fetching them. Run after `npm install`: node scripts/lockfile-platform-entries.mjs
import { readFileSync, writeFileSync } from "node:fs";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = /^@biomejs\/cli-(android|darwin|linux|win32)-(arm64|x64)(-musl)?$/.exec(name);
    const key = `${path.replace(/node_modules\/@biomejs\/biome$/, "")}node_modules/${name}`;
    if (!match || lock.packages[key]) continue;
    lock.packages[key] = {
      version,
      cpu: [match[2]],
      dev: true,
      license: "MIT OR Apache-2.0",
      optional: true,
      os: [match[1]],
      ...(match[3] ? { libc: ["musl"] } : {}),
      engines: { node: ">=14.21.3" },
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
