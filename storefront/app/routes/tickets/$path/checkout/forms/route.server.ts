import type { ItemForms } from "@ticketing/shared/schemas/ticket-office";
import { ApiError } from "#app/lib/api.server.ts";
import { keepHold, requireWizardBasket } from "#app/lib/baskets.server.ts";
import { answerErrorsOf, answerName, answersOf } from "#app/lib/extra-info-form.ts";
import { holdTimerOf } from "#app/lib/hold-timer.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

async function openStep(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  const { api, basket } = await requireWizardBasket(office, "forms");
  const forms = await api.get<ItemForms[]>(`/frontend/baskets/${basket.id}/forms`);
  // docs/specification.md §2.4: the first step; skipped when no article of the basket asks anything.
  if (forms.length === 0) throw await office.redirect(office.href("checkout/billing-information"));
  return { office, api, basket, forms };
}

/** The answers the API holds, by input name: going back to this step shows them again. */
const savedAnswers = (forms: ItemForms[]) =>
  Object.fromEntries(
    forms.flatMap((item) =>
      item.groups.flatMap((group) =>
        group.extraInfos.map((info) => [answerName(item.itemId, info.id), info.value ?? ""] as const),
      ),
    ),
  );

export async function loader(args: Route.LoaderArgs) {
  const { office, basket, forms } = await openStep(args);
  return office.data({
    forms,
    values: savedAnswers(forms),
    hold: holdTimerOf(basket, office.event.reservationMinutes, new Date()),
  });
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const { office, api, basket, forms } = await openStep(args);
  // "Keep my tickets longer" (the checkout's hold box): the answers typed and not saved are not part of it.
  if (form.get("intent") === "keepHold") {
    const refusal = await keepHold(api, basket.id);
    if (refusal)
      return office.data(
        { values: savedAnswers(forms), errors: refusal.errors, fieldErrors: {} as Record<string, string> },
        { status: refusal.status },
      );
    return office.redirect(office.href("checkout/forms"));
  }
  const values: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === "string") values[name] = value;
  const errors: string[] = [];
  const fieldErrors: Record<string, string> = {};
  // Every article is saved, so that a mistake in one does not lose the answers of the others.
  for (const item of forms) {
    try {
      await api.put(`/frontend/selected-nodes/${item.itemId}/extra-infos`, { answers: answersOf(form, item) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const itemErrors = answerErrorsOf(item.itemId, error.fieldErrors);
      Object.assign(fieldErrors, itemErrors);
      if (Object.keys(itemErrors).length === 0) errors.push(...error.errors);
    }
  }
  if (errors.length > 0 || Object.keys(fieldErrors).length > 0)
    return office.data({ values, errors: [...new Set(errors)], fieldErrors }, { status: 400 });
  return office.redirect(office.href("checkout/billing-information"));
}
