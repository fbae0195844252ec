// `npm start`: builds the back office and the ticket office when their sources are newer than their build,
// then runs the server (which migrates and seeds the database on first start): one process, or WORKERS=n of them
// on the one port (api/src/cluster.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (max, name) => (name === "node_modules" ? max : Math.max(max, newestMtime(join(path, name)))),
    0,
  );
}

const parts = [
  {
    name: "admin",
    sources: ["admin/src", "admin/index.html", "admin/vite.config.ts", "shared/src"],
    output: "admin/dist/index.html",
  },
  {
    name: "storefront",
    sources: ["storefront/app", "storefront/react-router.config.ts", "storefront/vite.config.ts", "shared/src"],
    output: "storefront/build/server/index.js",
  },
];

for (const part of parts) {
  const built = newestMtime(join(root, part.output));
  const changed = Math.max(...part.sources.map((source) => newestMtime(join(root, source))));
  if (built >= changed) continue;
  console.log(`Building the ${part.name}…`);
  const result = spawnSync("npm", ["run", "build", "-w", part.name], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawnSync(process.execPath, ["--import", "tsx", join(root, "api/src/cluster.ts")], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
process.exit(server.status ?? 0);
