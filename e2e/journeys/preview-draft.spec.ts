// DONE-WHEN (issue 14), the preview of a draft: an organiser opens "Preview ticket office" of a draft event from the
// back office, signs in on the preview's staff sign-in and buys with the demo payment up to the confirmation;
// nobody else sees anything of the draft: its public URL is the 404 page, its preview only the staff sign-in.
import { expect, ORGANISER, test, uniquePath } from "../fixtures.ts";
import { publicURL } from "../playwright.config.ts";
import {
  addArticle,
  asStaff,
  createEventThroughApi,
  fillBillingInformation,
  payOnDemoPage,
  signInToBackOffice,
} from "./ticket-office/office.ts";

const TITLE = "Spring Rehearsal";

test("an organiser previews a draft event and buys in the preview; signed-out visitors see nothing of it", async ({
  openPage,
  request,
}) => {
  const path = uniquePath("rehearsal");
  const organiser = await asStaff(request, ORGANISER);
  const event = await createEventThroughApi(organiser, {
    name: `Rehearsal ${path}`,
    frontend_title: TITLE,
    frontend_path: path,
    start_date: "2030-04-04T18:00:00.000Z",
    end_date: "2030-04-04T21:00:00.000Z",
  });
  await organiser.post(`/events/${event.id}/articles`, { title: "Rehearsal seat", price: 1200, stock: 10 });
  expect(event.status).toBe("draft");

  // A signed-out visitor, without JavaScript: the public URL is the 404 page, the preview the staff sign-in only.
  const visitor = await openPage({ javaScriptEnabled: false });
  const publicPage = await visitor.goto(`/tickets/${path}`);
  expect(publicPage?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await visitor.goto(`/tickets/preview/${path}/buy`);
  await expect(visitor).toHaveURL(`/tickets/preview/${path}/login?nextUrl=%2Ftickets%2Fpreview%2F${path}%2Fbuy`);
  await expect(visitor.getByRole("heading", { name: "Preview sign-in" })).toBeVisible();
  await expect(visitor.locator("body")).not.toContainText(TITLE);
  await visitor.goto(`/tickets/preview/${path}`);
  await expect(visitor.getByRole("heading", { name: "Preview sign-in" })).toBeVisible();
  await expect(visitor.locator("body")).not.toContainText(TITLE);

  // The organiser, in the back office (a react-admin SPA: JavaScript on), opens the preview of the draft.
  const admin = await openPage();
  await signInToBackOffice(admin);
  await admin.goto(`/admin/events/${event.id}/edit`);
  const [preview] = await Promise.all([
    // The tab this page opens: not any new page of the context (the accessibility check's axe opens blank ones).
    admin.waitForEvent("popup"),
    admin.getByRole("link", { name: "Preview ticket office" }).click(),
  ]);
  // The back office's link names PUBLIC_URL (localhost here, while the back office is on 127.0.0.1): the preview
  // stays on that origin to the end, the demo payment's page and its way back included (docs/decisions/0030).
  const office = `${publicURL}/tickets/preview/${path}`;
  await expect(preview).toHaveURL(new RegExp(`^${office}/login\\?nextUrl=`));
  await expect(preview.locator("body")).not.toContainText(TITLE);

  // A wrong account: a clear refusal, and still nothing of the event.
  await preview.getByLabel("Email").fill("nobody-here@example.org");
  await preview.getByLabel("Password").fill("not-a-password-2026!");
  await preview.getByRole("button", { name: "Sign in to preview" }).click();
  await expect(preview.getByRole("alert")).toBeVisible();
  await expect(preview.locator("body")).not.toContainText(TITLE);

  await preview.getByLabel("Email").fill(ORGANISER.email);
  await preview.getByLabel("Password").fill(ORGANISER.password);
  await preview.getByRole("button", { name: "Sign in to preview" }).click();
  await expect(preview.getByRole("heading", { name: TITLE })).toBeVisible();
  await expect(preview.getByRole("note")).toContainText("Testing mode");
  await preview.getByRole("link", { name: "Buy tickets" }).click();
  await expect(preview).toHaveURL(`${office}/buy`);

  await addArticle(preview, "Rehearsal seat");
  await preview.getByRole("link", { name: "Checkout" }).click();
  await fillBillingInformation(preview, `preview-${path}@example.org`);
  await expect(preview).toHaveURL(`${office}/checkout/payment-method`);
  await payOnDemoPage(preview, "12.00");
  await expect(preview).toHaveURL(`${office}/completion`);

  // Still a draft: the public URL stays the 404 page.
  expect((await visitor.goto(`/tickets/${path}`))?.status()).toBe(404);
});
