// The bare reference on several processes sharing its port (node:cluster), as `WORKERS=n npm start` runs the
// product: REFERENCE_WORKERS processes (2 by default) of reference-server.ts on one SQLite file. The rush compares
// the product's processes with the fastest bare server of either shape.
import cluster from "node:cluster";
import { join } from "node:path";

const workers = Number(process.env.REFERENCE_WORKERS ?? 2);
cluster.setupPrimary({ exec: join(import.meta.dirname, "reference-server.ts") });
for (let i = 0; i < workers; i++) cluster.fork();
// A worker that dies is not replaced: the load's errors say so.
process.on("SIGTERM", () => {
  for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
  process.exit(0);
});
