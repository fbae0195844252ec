// DONE-WHEN (issue 35), the door without a network: staff open the check-in page online, the network is cut, and
// they check three tickets in (typed, as read off the ticket): each is accepted offline and waits to be sent, a
// second scan of one is refused on the same device. A second device, offline too and in French, scans one of the same
// tickets. The network comes back: the scans are sent, the back office counts the three tickets in, and the ticket
// scanned on two devices is reported on the door's page and the check-in list (docs/decisions/0048).
import type { Page } from "@playwright/test";
import { decodeTicketQr, expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { buyTicketPdfs, eventOnSale, signInToBackOffice } from "./ticket-office/office.ts";

const SEAT = "Standing place";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const panel = (page: Page) =>
  page.getByRole("status", { name: /Result of the last scan|Résultat du dernier contrôle/ });
const counts = (page: Page) => page.getByRole("region", { name: /Tickets checked in|Billets contrôlés/ });
const network = (page: Page) => page.getByRole("status", { name: /^(Network|Réseau)$/ });
const doubles = (page: Page) =>
  page.getByRole("region", { name: /Scanned on two devices|Contrôlés sur deux appareils/ });

async function typeCode(page: Page, code: string, french = false) {
  await page.getByRole("textbox", { name: french ? "Code du billet" : "Ticket code" }).fill(code);
  await page.getByRole("button", { name: french ? "Valider l'entrée" : "Check in", exact: true }).click();
}

/** The door's page, opened online: it has kept the ticket key and the snapshot of the tickets sold before going on. */
async function openDoor(page: Page, eventId: number) {
  await signInToBackOffice(page);
  await page.goto(`/admin/events/${eventId}/check-in`);
  await expect(counts(page)).toHaveText(/0 (checked in of|entrés sur) 3/);
  await expect
    .poll(() =>
      page.evaluate(
        (id) =>
          localStorage.getItem("ticketing.checkIn.publicKey") !== null &&
          (localStorage.getItem(`ticketing.checkIn.door.${id}.real`) ?? "").includes('"takenAt"'),
        eventId,
      ),
    )
    .toBe(true);
}

test("door staff check tickets in without a network; the scans are sent when it is back, a double is reported", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("offline-door");
  const { event } = await eventOnSale(
    request,
    {
      name: `Offline door ${path}`,
      frontend_title: "Field Festival",
      frontend_path: path,
      start_date: "2030-08-01T16:00:00.000Z",
      end_date: "2030-08-01T23:00:00.000Z",
    },
    { articles: [{ title: SEAT, price: 1500, stock: 50 }] },
  );

  // A buyer pays three places and downloads the three tickets; their codes are what the QR codes hold.
  const buyer = await openPage({ acceptDownloads: true });
  const codes = (await buyTicketPdfs(buyer, path, SEAT, 3, "45.00")).map(decodeTicketQr);
  const [first, second, third] = codes as [string, string, string];

  // The first door, a phone: opened online, then the network is cut.
  const door = await openPage({ viewport: PHONE });
  await openDoor(door, event.id);
  await door.context().setOffline(true);
  await expect(network(door)).toContainText("Offline: codes are checked with the ticket key on this device");
  await expect(network(door)).toContainText(/Tickets sold as of \d\d\/\d\d\/\d{4}, \d\d:\d\d [AP]M/);

  // Three tickets typed: each accepted offline, waiting to be sent.
  for (const [index, code] of [first, second, third].entries()) {
    await typeCode(door, code);
    await expect(panel(door)).toContainText("Accepted offline");
    await expect(panel(door)).toHaveAttribute("data-tone", "success");
    await expect(panel(door)).toHaveAttribute("data-offline", "true");
    await expect(network(door)).toContainText(`${index + 1} scan${index ? "s" : ""} waiting to be sent`);
  }
  // The first one again on the same device: refused here, with when it was scanned.
  await typeCode(door, first);
  await expect(panel(door)).toContainText("Already scanned on this device");
  await expect(panel(door)).toHaveAttribute("data-tone", "warning");
  await expect(network(door)).toContainText("3 scans waiting to be sent");
  // A forged code is refused offline too: the signature is checked on the device.
  await typeCode(door, `${first.slice(0, -4)}${first.endsWith("AAAA") ? "BBBB" : "AAAA"}`);
  await expect(panel(door)).toContainText("not a genuine ticket code");
  await expect(panel(door)).toHaveAttribute("data-tone", "error");
  await typeCode(door, third);
  await expect(panel(door)).toContainText("Already scanned on this device");
  await door.screenshot({ path: test.info().outputPath("check-in-offline-390.png"), fullPage: true });
  // The scans are kept on the device: a reload online later still finds them (checked below by their sending).
  await expect(counts(door)).toHaveText("0 checked in of 3 sold");

  // A second device, in French on a desktop, offline too, scans the second ticket.
  const other = await openPage({ viewport: DESKTOP, locale: "fr-CH" });
  await openDoor(other, event.id);
  await other.context().setOffline(true);
  await expect(network(other)).toContainText("Hors ligne");
  await typeCode(other, second, true);
  await expect(panel(other)).toContainText("Accepté hors ligne");
  await expect(network(other)).toContainText("1 contrôle en attente d'envoi");
  await other.screenshot({ path: test.info().outputPath("check-in-offline-fr-desktop.png"), fullPage: true });

  // The network comes back on the first door: its three scans are sent and counted.
  await door.context().setOffline(false);
  await expect(network(door)).toContainText("Online: every scan is sent.");
  await expect(network(door)).toContainText("Sent: 3 checked in, 0 already in, 0 refused, 0 on two devices.");
  await expect(counts(door)).toHaveText("3 checked in of 3 sold");
  await door.screenshot({ path: test.info().outputPath("check-in-online-sent-390.png"), fullPage: true });

  // Then on the second, whose first sending is lost on the way: its scan waits, across a reload, and is sent again.
  // Its ticket was already in, scanned on the first device: it is reported.
  await other.route("**/check-ins/sync", (route) => route.abort("internetdisconnected"));
  await other.context().setOffline(false);
  await expect(network(other)).toContainText("n'ont pas encore pu être envoyés (le serveur n'a pas pu être joint)");
  await other.reload();
  await expect(network(other)).toContainText("1 contrôle en attente d'envoi");
  await expect(network(other)).toContainText("n'ont pas encore pu être envoyés");
  await other.unroute("**/check-ins/sync");
  await other.getByRole("button", { name: "Envoyer maintenant" }).click();
  await expect(network(other)).toContainText("En ligne : tous les contrôles sont envoyés.");
  await expect(network(other)).toContainText("déjà entrés 1");
  await expect(network(other)).toContainText("sur deux appareils 1");
  await expect(counts(other)).toHaveText("3 entrés sur 3 vendus");
  await expect(doubles(other)).toContainText(`${SEAT}, Grace Hopper`);
  await expect(doubles(other)).toContainText(`Puis : cet appareil (${ORGANISER.email})`);
  await other.screenshot({ path: test.info().outputPath("check-in-online-double-fr-desktop.png"), fullPage: true });

  // The back office: the list counts the three tickets in, and shows the ticket scanned on two devices, with both.
  await door.reload();
  await expect(counts(door)).toHaveText("3 checked in of 3 sold");
  await expect(network(door)).toHaveCount(0);
  await door.getByRole("link", { name: "Check-in list" }).click();
  await expect(counts(door)).toHaveText("3 checked in of 3 sold");
  const rows = door.getByRole("main").getByRole("listitem").filter({ hasText: "Grace Hopper" });
  await expect(rows.filter({ hasText: `by ${ORGANISER.email}` })).toHaveCount(3);
  await expect(doubles(door)).toContainText(`${SEAT}, Grace Hopper`);
  await expect(doubles(door)).toContainText(`First: this device (${ORGANISER.email})`);
  await expect(doubles(door)).toContainText(/Again: device [0-9a-f]{8} \(/);
  await door.screenshot({ path: test.info().outputPath("check-in-list-double-390.png"), fullPage: true });
  await door.setViewportSize(DESKTOP);
  await expect(door.getByRole("table").locator("tbody tr")).toHaveCount(3);
  await door.screenshot({ path: test.info().outputPath("check-in-list-double-desktop.png"), fullPage: true });
});
