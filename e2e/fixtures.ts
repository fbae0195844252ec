// What the journeys share: the demo logins, a ticket's QR code read back from its PDF.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ORGANISER = { email: "organiser@example.org", password: "demo-organiser-2026!" };

/** Renders the PDF's first page with pdftoppm and decodes its QR code with zbarimg (Debian packages). */
export function decodeTicketQr(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "ticket-"));
  const file = join(dir, "ticket.pdf");
  writeFileSync(file, pdf);
  execFileSync("pdftoppm", ["-png", "-r", "150", "-f", "1", "-l", "1", file, join(dir, "page")]);
  const page = execFileSync("sh", ["-c", `ls "${dir}"/page*.png | head -1`]).toString().trim();
  return execFileSync("zbarimg", ["--quiet", "--raw", page]).toString().trim();
}

export const uniquePath = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;
