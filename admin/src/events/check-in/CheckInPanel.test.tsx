// @vitest-environment jsdom
import { cleanup, screen } from "@testing-library/react";
import type { CheckInResult } from "@ticketing/shared/schemas/check-ins";
import { afterEach, describe, expect, it } from "vitest";
import { renderInAdmin } from "../../widgets/test-render.tsx";
import { CheckInCountsLine, CheckInPanel, type Scan } from "./CheckInPanel.tsx";
import { counts, firstCheckIn as firstScan, ticket } from "./checkIn.fixtures.ts";

afterEach(cleanup);

const scanOf = (result: CheckInResult): Scan => ({ result, at: new Date("2026-11-24T18:00:00.000Z") });

const panel = () => screen.getByRole("status", { name: /Result of the last scan|Résultat du dernier contrôle/ });

describe("CheckInPanel", () => {
  it("says a ticket let in now in words, in green, with its holder and order", () => {
    renderInAdmin(
      <CheckInPanel
        scan={scanOf({ outcome: "checked_in", reason: null, ticket, checkIn: firstScan, counts })}
        preview={false}
      />,
    );
    expect(panel()).toHaveProperty("dataset.tone", "success");
    expect(panel().textContent).toContain("Checked in");
    expect(panel().textContent).toContain("Gala dinner, Ada Lovelace");
    expect(panel().textContent).toContain("Order AB12CD");
  });

  it("says when and by whom a ticket already came in, in amber, in French too", () => {
    const scan = scanOf({ outcome: "already_checked_in", reason: null, ticket, checkIn: firstScan, counts });
    renderInAdmin(<CheckInPanel scan={scan} preview={false} />, "fr");
    expect(panel()).toHaveProperty("dataset.tone", "warning");
    // 17:05 UTC is 18:05 in Switzerland; the test runs in whatever zone the machine has, hence the pattern.
    expect(panel().textContent).toContain("Déjà entré");
    expect(panel().textContent).toMatch(/le 24\.11\.2026 \d\d:05, contrôlé par door@example\.org/);
  });

  it("refuses in red with the reason in words: forged, refunded, a test ticket at the real door", () => {
    const refused = (reason: CheckInResult["reason"]) =>
      scanOf({ outcome: "refused", reason, ticket: reason === "invalid_code" ? null : ticket, checkIn: null, counts });
    const { rerender } = renderInAdmin(<CheckInPanel scan={refused("invalid_code")} preview={false} />);
    expect(panel()).toHaveProperty("dataset.tone", "error");
    expect(panel().textContent).toContain("Refused");
    expect(panel().textContent).toContain("not a genuine ticket code");
    const again = (scan: Scan, preview: boolean) => rerender(<CheckInPanel scan={scan} preview={preview} />);
    again(refused("refunded"), false);
    expect(panel().textContent).toContain("this ticket was refunded");
    again(refused("wrong_mode"), false);
    expect(panel().textContent).toContain("a test ticket from the preview");
    again(refused("wrong_mode"), true);
    expect(panel().textContent).toContain("a real ticket: the preview");
  });

  it("says what the door decided offline: kept to be sent, already scanned here, refused (docs/decisions/0048)", () => {
    const at = new Date("2026-11-24T18:00:00.000Z");
    const { rerender } = renderInAdmin(
      <CheckInPanel scan={{ offline: { kind: "accepted", itemId: 9 }, at }} preview={false} />,
    );
    expect(panel()).toHaveProperty("dataset.tone", "success");
    expect(panel()).toHaveProperty("dataset.offline", "true");
    expect(panel().textContent).toContain("Accepted offline");
    expect(panel().textContent).toContain("Waiting to be sent");
    rerender(
      <CheckInPanel scan={{ offline: { kind: "alreadyHere", at: firstScan.checkedInAt }, at }} preview={false} />,
    );
    expect(panel()).toHaveProperty("dataset.tone", "warning");
    expect(panel().textContent).toMatch(/Already scanned on this device\s*at 11\/24\/2026, \d\d:05 [AP]M/);
    rerender(
      <CheckInPanel scan={{ offline: { kind: "notSold", snapshotAt: firstScan.checkedInAt }, at }} preview={false} />,
    );
    expect(panel()).toHaveProperty("dataset.tone", "error");
    expect(panel().textContent).toContain("not sold when the ticket list was saved");
    rerender(<CheckInPanel scan={{ offline: { kind: "refused", reason: "other_event" }, at }} preview={false} />);
    expect(panel().textContent).toContain("a ticket of another event");
  });

  it("asks for a first scan before any", () => {
    renderInAdmin(<CheckInPanel scan={null} preview={false} />);
    expect(panel()).toHaveProperty("dataset.tone", "ready");
    expect(panel().textContent).toContain("Ready: scan a ticket");
  });
});

describe("CheckInCountsLine", () => {
  it("shows the tickets checked in of those sold", () => {
    renderInAdmin(<CheckInCountsLine counts={{ sold: 1200, checkedIn: 37 }} />);
    expect(screen.getByRole("region", { name: "Tickets checked in" }).textContent).toBe("37 checked in of 1,200 sold");
  });
});
