// DONE-WHEN (issue 17), the door: a buyer pays four tickets, staff refund one; on the check-in page, on a phone's
// width, staff type a ticket's code as printed on its PDF (green, counted), type it again (already checked in at …
// by …), type a forged one and the refunded one (refused), feed a photo of another ticket (green); the counts and
// the check-in list agree, and the list exports. Then a phone whose camera films the last ticket (Chromium's fake
// camera playing the ticket's image) checks it in, in French.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "@playwright/test";
import { decodeTicketQr, downloaded, expect, ORGANISER, pdfFile, test, uniquePath } from "../fixtures.ts";
import config from "../playwright.config.ts";
import { buyTicketPdfs, eventOnSale, signInToBackOffice } from "./ticket-office/office.ts";

const SEAT = "Standing place";
const PHONE = { width: 390, height: 844 };

/**
 * The code printed under the QR code, as a person reads it off the ticket (pdftotext): its lines of 64 characters
 * and the shorter last one, joined. `-raw`: by default pdftotext takes a `-` ending a line for a hyphen, drops it and
 * joins the next line (a code's line ends with `-` about once in 32 tickets).
 */
function printedCode(pdf: Buffer): string {
  const text = execFileSync("pdftotext", ["-raw", pdfFile(pdf), "-"]).toString();
  const lines = text.split("\n").map((line) => line.trim());
  const start = lines.findIndex((line) => /^[A-Za-z0-9_.-]{64}$/.test(line));
  const codeLines: string[] = [];
  for (const line of lines.slice(start)) {
    if (!/^[A-Za-z0-9_.-]+$/.test(line)) break;
    codeLines.push(line);
  }
  return codeLines.join("");
}

/** The ticket's page as an image (pdftoppm), as a phone's photo of it would be: `png` or `jpeg`. */
/** Images the journey reads as they are (not rendered from this run's tickets). */
const IMAGES = join(import.meta.dirname, "images");

function ticketImage(pdf: Buffer, format: "png" | "jpeg"): string {
  const file = pdfFile(pdf);
  const dir = join(file, "..");
  // Even sides: Chromium's fake camera converts frames to I420, which halves them.
  execFileSync("pdftoppm", [
    `-${format}`,
    "-f",
    "1",
    "-l",
    "1",
    "-scale-to-x",
    "800",
    "-scale-to-y",
    "1132",
    file,
    join(dir, "page"),
  ]);
  const page = readdirSync(dir).find((name) => name.startsWith("page"));
  if (!page) throw new Error("pdftoppm wrote no image");
  return join(dir, page);
}

/** The claims signed into a code (docs/design.md §4: base64url JSON `{e, b, i}`, a dot, the signature). */
function claimsOf(code: string): { e: number; b: number; i: number } {
  return JSON.parse(Buffer.from(code.split(".")[0] ?? "", "base64url").toString());
}

const panel = (page: Page) =>
  page.getByRole("status", { name: /Result of the last scan|Résultat du dernier contrôle/ });
const counts = (page: Page) => page.getByRole("region", { name: /Tickets checked in|Billets contrôlés/ });

async function typeCode(page: Page, code: string) {
  await page.getByRole("textbox", { name: "Ticket code" }).fill(code);
  await page.getByRole("button", { name: "Check in", exact: true }).click();
}

test("staff check tickets in at the door: typed, photographed and filmed; refused when forged or refunded", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("door");
  const { event, organiser } = await eventOnSale(
    request,
    {
      name: `Door ${path}`,
      frontend_title: "Rooftop Concert",
      frontend_path: path,
      start_date: "2030-07-01T18:00:00.000Z",
      end_date: "2030-07-01T23:00:00.000Z",
    },
    { articles: [{ title: SEAT, price: 2000, stock: 50 }] },
  );

  // A buyer pays four places and downloads the four tickets.
  const buyer = await openPage({ acceptDownloads: true });
  const pdfs = await buyTicketPdfs(buyer, path, SEAT, 4, "80.00");
  const [typed, photographed, filmed, refunded] = pdfs.map((pdf) => ({ pdf, code: decodeTicketQr(pdf) }));
  if (!typed || !photographed || !filmed || !refunded) throw new Error("four tickets expected");
  // What a person types is what the QR code holds.
  expect(printedCode(typed.pdf)).toBe(typed.code);

  // Staff refund the fourth place: it no longer counts as sold, and its ticket must not let anyone in.
  const { b: basketId, i: refundedItem } = claimsOf(refunded.code);
  await organiser.post(`/baskets/${basketId}/refunds`, { item_ids: [refundedItem], reason: "Cannot come" });

  // The door, on a phone.
  const door = await openPage({ viewport: PHONE, acceptDownloads: true });
  await signInToBackOffice(door);
  await door.goto(`/admin/events/${event.id}/check-in`);
  await expect(counts(door)).toHaveText("0 checked in of 3 sold");
  await expect(panel(door)).toContainText("Ready: scan a ticket");

  // The code typed from the ticket: let in, counted.
  await typeCode(door, printedCode(typed.pdf));
  await expect(panel(door)).toContainText("Checked in");
  await expect(panel(door)).toHaveAttribute("data-tone", "success");
  await expect(panel(door)).toContainText(`${SEAT}, Grace Hopper`);
  await expect(counts(door)).toHaveText("1 checked in of 3 sold");
  await door.screenshot({ path: test.info().outputPath("check-in-green-390.png"), fullPage: true });

  // The same again: when and by whom.
  await typeCode(door, typed.code);
  await expect(panel(door)).toHaveAttribute("data-tone", "warning");
  await expect(panel(door)).toContainText("Already checked in");
  await expect(panel(door)).toContainText(
    new RegExp(`at \\d\\d/\\d\\d/\\d{4}, \\d\\d:\\d\\d [AP]M by ${ORGANISER.email}`),
  );
  await expect(counts(door)).toHaveText("1 checked in of 3 sold");
  await door.screenshot({ path: test.info().outputPath("check-in-amber-390.png"), fullPage: true });

  // A forged code (its signature altered) and the refunded ticket: refused, in red, with the reason.
  const forged = `${typed.code.slice(0, -4)}${typed.code.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
  await typeCode(door, forged);
  await expect(panel(door)).toHaveAttribute("data-tone", "error");
  await expect(panel(door)).toContainText("Refused");
  await expect(panel(door)).toContainText("not a genuine ticket code");
  await typeCode(door, refunded.code);
  await expect(panel(door)).toContainText("Refused");
  await expect(panel(door)).toContainText("this ticket was refunded");
  await expect(panel(door)).toHaveAttribute("data-tone", "error");
  await door.screenshot({ path: test.info().outputPath("check-in-red-390.png"), fullPage: true });
  await expect(counts(door)).toHaveText("1 checked in of 3 sold");

  // A ticket of another instance, rendered 800 px wide: zxing reads its code only at half that size, so the page
  // tries a few sizes before it says no code could be read. Its signature is not this instance's: refused in red.
  await door.getByLabel("Read a photo of the ticket").setInputFiles(join(IMAGES, "ticket-read-at-half-size.png"));
  await expect(panel(door)).toContainText("not a genuine ticket code");
  await expect(panel(door)).toHaveAttribute("data-tone", "error");

  // A photo of the second ticket, read in the page.
  await door.getByLabel("Read a photo of the ticket").setInputFiles(ticketImage(photographed.pdf, "png"));
  await expect(panel(door)).toHaveAttribute("data-tone", "success");
  await expect(panel(door)).toContainText("Checked in");
  await expect(counts(door)).toHaveText("2 checked in of 3 sold");

  // The list agrees: three tickets sold, two of them in, by the organiser; the third still out. On a phone its rows
  // are list items.
  await door.getByRole("link", { name: "Check-in list" }).click();
  await expect(counts(door)).toHaveText("2 checked in of 3 sold");
  const rows = door.getByRole("main").getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: `by ${ORGANISER.email}` })).toHaveCount(2);
  await door.getByRole("combobox", { name: "Check-in" }).click();
  await door.getByRole("option", { name: "Not checked in" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Not checked in");
  await door.screenshot({ path: test.info().outputPath("check-in-list-390.png"), fullPage: true });

  // Exported as the list is shown: the one ticket not yet in.
  await door.getByRole("button", { name: "Export" }).click();
  const exporting = door.waitForEvent("download");
  await door.getByRole("menuitem", { name: "CSV" }).click();
  const csv = (await downloaded(await exporting)).toString("utf8");
  const csvRows = csv.trim().split(/\r?\n/);
  expect(csvRows).toHaveLength(2);
  expect(csvRows[1]).toContain("Grace Hopper");
  expect(csv).not.toContain(ORGANISER.email);

  // On a desktop the same list is a table, still filtered; and the door's page.
  await door.setViewportSize({ width: 1280, height: 900 });
  await expect(door.getByRole("table").locator("tbody tr")).toHaveCount(1);
  await door.screenshot({ path: test.info().outputPath("check-in-list-desktop.png"), fullPage: true });
  await door.getByRole("link", { name: "Scan tickets" }).click();
  await expect(counts(door)).toHaveText("2 checked in of 3 sold");
  await door.screenshot({ path: test.info().outputPath("check-in-desktop.png"), fullPage: true });

  // A phone that films the third ticket, in French: Chromium's fake camera plays its image (a one-frame MJPEG).
  const video = join(mkdtempSync(join(tmpdir(), "camera-")), "ticket.mjpeg");
  copyFileSync(ticketImage(filmed.pdf, "jpeg"), video);
  const launchArgs = config.use?.launchOptions?.args ?? [];
  const cameraBrowser = await chromium.launch({
    executablePath: config.use?.launchOptions?.executablePath,
    args: [
      ...launchArgs,
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await cameraBrowser.newContext({ ...config.use, viewport: PHONE, locale: "fr-CH" });
    await context.grantPermissions(["camera"]);
    const phone = await context.newPage();
    await signInToBackOffice(phone);
    await phone.goto(`/admin/events/${event.id}/check-in`);
    await expect(counts(phone)).toHaveText("2 entrés sur 3 vendus");
    await phone.getByRole("button", { name: "Scanner avec la caméra" }).click();
    // The fake camera starts and its frames are decoded one after another: on a machine busy with the other journeys
    // that took more than the usual 20 s once in a full run (it reads the ticket in 1-2 s alone).
    await expect(panel(phone)).toContainText("Entrée validée", { timeout: 60_000 });
    await expect(panel(phone)).toHaveAttribute("data-tone", "success");
    await expect(counts(phone)).toHaveText("3 entrés sur 3 vendus");
    await phone.screenshot({ path: test.info().outputPath("check-in-camera-fr-390.png"), fullPage: true });
    await phone.getByRole("button", { name: "Arrêter la caméra" }).click();
    // Held up again by hand (the photo), the filmed ticket is already in.
    await phone.getByLabel("Lire une photo du billet").setInputFiles(ticketImage(filmed.pdf, "png"));
    await expect(panel(phone)).toContainText("Déjà entré");
    await expect(panel(phone)).toContainText(
      new RegExp(`le \\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d, contrôlé par ${ORGANISER.email}`),
    );
    await expect(panel(phone)).toHaveAttribute("data-tone", "warning");
    await phone.setViewportSize({ width: 1280, height: 900 });
    await phone.screenshot({ path: test.info().outputPath("check-in-amber-fr-desktop.png"), fullPage: true });
    await context.close();
  } finally {
    await cameraBrowser.close();
  }
});
