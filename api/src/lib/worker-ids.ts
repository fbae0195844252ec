// Who a background worker is (the mail worker's and the webhook worker's claims name it: docs/decisions/0008,
// 0045): `<pid>.<nonce>@<host>#<kernel>`, and whether the worker that wrote a claim is certainly gone, so that a
// restart takes over a killed process's claims at once instead of waiting out their leases.
import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

// Who a worker is: `<pid>.<nonce>@<host>#<kernel>`, where the kernel part (boot id and pid namespace) says
// whether another worker's pid can be checked from here. Missing where /proc is not (then leases alone).
const KERNEL = (() => {
  try {
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const pidNamespace = readlinkSync("/proc/self/ns/pid").replace(/\D/g, "");
    return bootId && pidNamespace ? `${bootId}:${pidNamespace}` : "";
  } catch {
    return "";
  }
})();
const WORKER_ID = /^(\d+)\.(\w+)@[^#]*#(.*)$/;
/** The workers of this process that may hold claims now. */
export const activeWorkers = new Set<string>();

export function createWorkerId(pid = process.pid): string {
  return `${pid}.${randomBytes(6).toString("hex")}@${hostname()}#${KERNEL}`;
}

/**
 * Whether the worker that wrote `workerId` is certainly gone: it ran under this kernel and pid namespace, and
 * its process no longer exists (or is this process, in which it is not running). Anything else may be alive.
 */
export function isWorkerGone(workerId: string): boolean {
  const match = WORKER_ID.exec(workerId);
  if (!match || !KERNEL || match[3] !== KERNEL || activeWorkers.has(workerId)) return false;
  const pid = Number(match[1]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
