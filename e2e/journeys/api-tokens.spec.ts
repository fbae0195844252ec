// DONE-WHEN (issue 35), API tokens: an owner creates a token on the unit's page, copies it from the dialog that shows
// it once, another system reads the unit's events with it and is refused what its scopes do not allow; the list then
// says when it was last used; once revoked, the token is refused.
import { expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { asStaff, createEventThroughApi, signInToBackOffice } from "./ticket-office/office.ts";

test("an owner creates an API token, a system uses it within its scopes, the owner revokes it", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("tokens");
  const organiser = await asStaff(request, ORGANISER);
  // A unit of its own: the demo unit's tokens stay as they are.
  const unit = await organiser.post("/units", { name: `Tokens ${path}` });
  const event = await createEventThroughApi(organiser, {
    unit_id: unit.id,
    name: `Tokens ${path}`,
    frontend_title: "Token Fair",
    frontend_path: path,
    start_date: "2030-09-12T16:00:00.000Z",
    end_date: "2030-09-12T22:00:00.000Z",
  });

  const admin = await openPage();
  await signInToBackOffice(admin);
  await admin.goto(`/admin/units/${unit.id}`);
  const panel = admin.getByRole("region", { name: "API tokens" });
  await expect(panel.getByText("No API token yet.")).toBeVisible();
  await panel.getByRole("button", { name: "Create a token" }).click();

  const dialog = admin.getByRole("dialog", { name: "Create an API token" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("Door scanner");
  await dialog.getByRole("checkbox", { name: "Read events and sales" }).check();
  await dialog.getByRole("checkbox", { name: "Write check-ins" }).check();
  await dialog.getByRole("button", { name: "Create a token" }).click();

  // Shown once, with the warning, to copy.
  const shown = admin.getByRole("dialog", { name: "Your new API token" });
  await expect(shown.getByText("it will not be shown again")).toBeVisible();
  await expect(shown.getByRole("button", { name: "Copy the token" })).toBeVisible();
  const token = await shown.getByRole("textbox", { name: "Door scanner" }).inputValue();
  expect(token).toMatch(/^tkt_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole("button", { name: "Done" }).click();

  // The list: its prefix, never the token; not used yet.
  const row = panel.getByRole("row", { name: /Door scanner/ });
  await expect(row).toContainText(`${token.slice(0, 12)}…`);
  await expect(row).toContainText("Read events and sales");
  await expect(row).toContainText("Write check-ins");
  await expect(row).toContainText("Never");
  await expect(admin.getByText(token)).toHaveCount(0);

  // Another system: reads the unit's events, may not change them.
  const bearer = { authorization: `Bearer ${token}` };
  const events = await request.get("/api/v1/events", { headers: bearer });
  expect(events.status()).toBe(200);
  expect((await events.json()).map((e: { id: number }) => e.id)).toEqual([event.id]);
  const change = await request.put(`/api/v1/events/${event.id}`, { headers: bearer, data: { name: "Renamed" } });
  expect(change.status()).toBe(403);
  expect((await change.json()).errors).toEqual(['This API token lacks the scope "manage" that this request needs']);

  // The owner sees it was used, and revokes it, after a confirmation.
  await admin.reload();
  await expect(row).not.toContainText("Never");
  await row.getByRole("button", { name: "Revoke Door scanner" }).click();
  await admin.getByRole("dialog", { name: "Revoke an API token" }).getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: "Revoke Door scanner" })).toHaveCount(0);
  expect((await request.get("/api/v1/events", { headers: bearer })).status()).toBe(401);
});
