// The libSQL (Hrana over HTTP) stand-in on its own, for the bench or by hand:
//   node --import tsx db/src/hrana-stand-in/main.ts --file data/wire.sqlite --port 8080 [--delay-ms 1] [--auth-token T]
// then run the product with DATABASE_URL=http://127.0.0.1:8080 (and DATABASE_AUTH_TOKEN=T if given).
// `curl 127.0.0.1:8080/stand-in/stats` answers the write lock's holding times; see server.ts.
import { parseArgs } from "node:util";
import { startHranaStandIn } from "./server.ts";

const { values } = parseArgs({
  options: {
    file: { type: "string" },
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
    "delay-ms": { type: "string", default: "0" },
    "auth-token": { type: "string" },
  },
});
const port = Number(values.port);
const delayMs = Number(values["delay-ms"]);
const fail = (message: string) => {
  console.error(message);
  process.exit(2);
};
if (!values.file) fail("--file names the SQLite file to serve, e.g. --file data/wire.sqlite");
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port takes a port number, not ${values.port}`);
if (!Number.isFinite(delayMs) || delayMs < 0) fail(`--delay-ms takes a number ≥ 0, not ${values["delay-ms"]}`);

const standIn = await startHranaStandIn({
  file: values.file as string,
  port,
  host: values.host,
  delayMs,
  authToken: values["auth-token"],
});
console.log(`Hrana stand-in serving ${values.file} on ${standIn.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });
