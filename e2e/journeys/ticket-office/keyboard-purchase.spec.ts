// DONE-WHEN (issue 33, WCAG 2.1.1 Keyboard, 2.4.7 Focus visible, 2.4.11 Focus not obscured, 3.3.1 Error
// identification): a guest buys a ticket of an event with a form from its welcome page to the order's confirmation
// with the keyboard alone (Tab, Shift+Tab, Space, Enter, arrows and typing; no click, no fill), JavaScript off and
// on, on a 390 px wide phone. At every key the focused element shows a focus ring and is in view, not under
// anything; a refused billing form puts focus on its error summary, whose links lead to their fields.

import type { Page } from "@playwright/test";
import { expect, test, uniquePath } from "../../fixtures.ts";
import { eventOnSale } from "./office.ts";

const ARTICLE = "Festival pass";
/** How many Tab presses a step may take before the journey says the element was not reached. */
const MAX_TABS = 40;

/** What is focused, as a person would name it, and whether they can see it. */
interface Focused {
  description: string;
  isFocusVisible: boolean;
  ring: string;
  hasRing: boolean;
  isInViewport: boolean;
  isUncovered: boolean;
}

function readFocus(page: Page, whole: boolean): Promise<Focused | null> {
  return page.evaluate((whole) => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const input = element as HTMLInputElement;
    const label = input.labels?.[0]?.textContent ?? element.getAttribute("aria-label") ?? "";
    const text = (element.textContent || label || input.value || "").replace(/\s+/g, " ").trim();
    const description = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${text}"`;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    const box = element.getBoundingClientRect();
    const isInViewport =
      box.width > 0 &&
      box.height > 0 &&
      box.top >= 0 &&
      box.left >= 0 &&
      (whole ? box.bottom <= window.innerHeight : box.top < window.innerHeight) &&
      box.right <= window.innerWidth;
    // Where a person looks for it: its centre, or the top of what is taller than the screen.
    const y = whole ? box.top + box.height / 2 : box.top + 12;
    const hit = document.elementFromPoint(box.left + box.width / 2, y);
    // A checkbox drawn inside its label may be hit through the label's text: either is the control.
    const isUncovered =
      !!hit &&
      (hit === element || element.contains(hit) || [...(input.labels ?? [])].includes(hit as HTMLLabelElement));
    return {
      description,
      isFocusVisible: element.matches(":focus-visible"),
      ring: `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow ${style.boxShadow}`,
      hasRing: outline || shadow,
      isInViewport,
      isUncovered,
    };
  }, whole);
}

/** Fails unless something is focused, with a visible ring, wholly in the viewport and on top at its centre. */
async function expectVisibleFocus(page: Page, { whole = true } = {}): Promise<Focused> {
  const focused = await readFocus(page, whole);
  expect(focused, `nothing is focused on ${page.url()}`).not.toBeNull();
  const { description } = focused as Focused;
  expect(focused?.isFocusVisible, `${description} does not match :focus-visible`).toBe(true);
  expect(focused?.hasRing, `${description} has no focus ring (${focused?.ring})`).toBe(true);
  expect(focused?.isInViewport, `${description} is not wholly in the viewport`).toBe(true);
  expect(focused?.isUncovered, `${description} is covered at its centre`).toBe(true);
  return focused as Focused;
}

/**
 * Presses `key` (Tab or Shift+Tab) until the focused element's description matches `target`, checking the focus
 * at every press: the path a keyboard user takes, every stop of it seen.
 */
async function tabTo(page: Page, target: RegExp, key: "Tab" | "Shift+Tab" = "Tab") {
  const passed: string[] = [];
  for (let presses = 0; presses < MAX_TABS; presses++) {
    await page.keyboard.press(key);
    const focused = await expectVisibleFocus(page);
    if (target.test(focused.description)) return focused;
    passed.push(focused.description);
  }
  throw new Error(`${target} not reached with ${key}; passed:\n${passed.join("\n")}`);
}

/** Presses `key` on the focused element and waits for the page that follows to show `heading`. */
async function pressAndSee(page: Page, key: "Enter" | "Space", heading: string | RegExp) {
  await page.keyboard.press(key);
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  // Turbo swaps the page in and then scrolls: the focus is read once that is over.
  await expect(page.locator("html")).not.toHaveAttribute("aria-busy");
}

/** Tabs to the text field labelled `label` and types `text` into it. */
async function typeInto(page: Page, label: RegExp, text: string) {
  await tabTo(page, label);
  await page.keyboard.type(text);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`keyboard purchase with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 390, height: 844 } });

    test("a guest buys two passes with the keyboard alone, seeing where the focus is at every key", async ({
      page,
      request,
    }) => {
      const path = uniquePath(javaScriptEnabled ? "keys-js" : "keys");
      await eventOnSale(
        request,
        {
          name: `Keyboard ${path}`,
          frontend_title: "Harbour Lights Festival",
          frontend_path: path,
          start_date: "2030-08-14T16:00:00.000Z",
          end_date: "2030-08-14T23:00:00.000Z",
        },
        {
          articles: [{ title: ARTICLE, price: 3500, stock: 20 }],
          prepare: async ({ event, articles: [pass], organiser }) => {
            const group = await organiser.post("/node-extra-info-groups", {
              event_id: event.id,
              name: "Pass holder",
              is_required: true,
              node_configuration_ids: [pass.configuration.id],
            });
            await organiser.post("/node-extra-infos", {
              event_id: event.id,
              group_id: group.id,
              name: "Name on the pass",
              type: "text",
              is_required: true,
              order: 0,
            });
          },
        },
      );
      const base = `/tickets/${path}`;

      // The welcome page: the first Tab reaches the skip link, which leads past the header into the page.
      await page.goto(base);
      await expect(page.getByRole("heading", { name: "Harbour Lights Festival", level: 1 })).toBeVisible();
      const skip = await tabTo(page, /Skip to content/);
      expect(skip.description).toMatch(/^a /);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#main$/);
      await expect(page.getByRole("main")).toBeFocused();
      // The content's ring is seen at its top (it is taller than the screen).
      await expectVisibleFocus(page, { whole: false });
      // The next Tab goes on from the content, past the header's link.
      const afterSkip = await tabTo(page, /./);
      expect(afterSkip.description).toMatch(/Buy tickets/);
      await pressAndSee(page, "Enter", "Log in");

      // Signing in as a guest.
      await tabTo(page, /Continue as guest/);
      await pressAndSee(page, "Enter", "Choose your tickets");

      // Two passes: the quantity field's arrow keys, then "Add to basket".
      const quantity = page.getByRole("spinbutton", { name: "Quantity" });
      await tabTo(page, /^input#quantity-\d+/);
      await page.keyboard.press("ArrowUp");
      await expect(quantity).toHaveValue("2");
      await tabTo(page, /Add to basket/);
      await page.keyboard.press("Enter");
      const basket = page.getByRole("complementary", { name: "Your basket" });
      await expect(basket).toContainText(`2 × ${ARTICLE}`);
      await expect(page.locator("html")).not.toHaveAttribute("aria-busy");

      // On a phone the basket is below the catalogue: its jump link, then on to "Checkout" (Shift+Tab comes back
      // from the link after it, as a person who went one too far).
      await page.goto(`${base}/buy`); // a fresh page: focus starts from the top, as after any reload
      await tabTo(page, /Skip to content/);
      await tabTo(page, /Your basket/);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#basket-title$/);
      await expect(page.getByRole("link", { name: /Your basket/ })).not.toBeFocused();
      await tabTo(page, /Checkout/);
      await tabTo(page, /./);
      await tabTo(page, /Checkout/, "Shift+Tab");
      await pressAndSee(page, "Enter", "About your tickets");

      // The form of each pass.
      await typeInto(page, /Name on the pass/, "Ada Lovelace");
      await typeInto(page, /Name on the pass/, "Charles Babbage");
      await tabTo(page, /Continue/);
      await pressAndSee(page, "Enter", "Billing information");

      // Billing information, with the email left out: refused, the summary takes the focus and its link leads
      // to the field.
      const billing = page.getByRole("textbox");
      for (const [label, purpose] of [
        ["First name", "given-name"],
        ["Last name", "family-name"],
        ["Email", "email"],
        ["Address", "street-address"],
        ["Postal code", "postal-code"],
        ["City", "address-level2"],
        ["Country", "country-name"],
      ] as const)
        await expect(billing.and(page.getByLabel(label, { exact: true }))).toHaveAttribute("autocomplete", purpose);
      await typeInto(page, /^input#billing-firstName/, "Ada");
      await typeInto(page, /^input#billing-lastName/, "Lovelace");
      await typeInto(page, /^input#billing-address/, "12 Avenue de la Gare");
      await typeInto(page, /^input#billing-postalCode/, "1003");
      await typeInto(page, /^input#billing-city/, "Lausanne");
      await typeInto(page, /^input#billing-country/, "Switzerland");
      await tabTo(page, /Continue/);
      await pressAndSee(page, "Enter", "Billing information");
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await expect(summary).toBeFocused();
      await expectVisibleFocus(page);
      const email = page.getByRole("textbox", { name: "Email" });
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(email).toHaveAccessibleDescription("This field is required");
      await expect(page.getByRole("textbox", { name: "First name" })).not.toHaveAttribute("aria-invalid");
      await tabTo(page, /^a .*Email: This field is required/);
      await page.keyboard.press("Enter");
      await expect(email).toBeFocused();
      await expectVisibleFocus(page);
      // On the same page: what was typed is still there.
      await expect(page.getByRole("textbox", { name: "First name" })).toHaveValue("Ada");
      await expect(page).toHaveURL(/#billing-email$/);
      await page.keyboard.type("ada@example.org");
      await tabTo(page, /Continue/);
      await pressAndSee(page, "Enter", "Payment method");

      // The payment step: the terms ticked with Space, then paid on the demo provider's page.
      await tabTo(page, /I accept the terms of service/);
      await page.keyboard.press("Space");
      await expect(page.getByRole("checkbox", { name: "I accept the terms of service" })).toBeChecked();
      await tabTo(page, /Pay now/);
      await pressAndSee(page, "Enter", "Demo payment");
      await tabTo(page, /^button "Pay CHF\s*70\.00"/);
      await page.keyboard.press("Enter");
      const confirmation = page.getByRole("heading", {
        name: /Payment received, waiting for confirmation|Thank you for your order/,
      });
      await expect(confirmation).toBeVisible();
      if ((await confirmation.textContent())?.startsWith("Payment received")) {
        await tabTo(page, /View your order/);
        await pressAndSee(page, "Enter", "Thank you for your order");
      }
      await expect(page.getByRole("main")).toContainText("70.00");
      // The confirmation's own links are reached and seen too.
      await tabTo(page, /Skip to content/);
    });
  });
}
