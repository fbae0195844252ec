import type { BillingInformation } from "@ticketing/shared/schemas/ticket-office";
import { getFixedT } from "#app/i18n.server.ts";
import { ApiError } from "#app/lib/api.server.ts";
import { keepHold, requireWizardBasket } from "#app/lib/baskets.server.ts";
import { holdTimerOf } from "#app/lib/hold-timer.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";
import { FIELDS, type FieldName } from "./fields";

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const { basket } = await requireWizardBasket(office, "billing-information");
  return office.data({
    values: basket.billingInformation as Partial<BillingInformation> | null,
    hold: holdTimerOf(basket, office.event.reservationMinutes, new Date()),
  });
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const office = await TicketOffice.open(args);
  const { api, basket } = await requireWizardBasket(office, "billing-information");
  // "Keep my tickets longer" (the checkout's hold box): the fields typed and not saved are not part of it.
  if (form.get("intent") === "keepHold") {
    const refusal = await keepHold(api, basket.id);
    if (refusal)
      return office.data(
        {
          values: (basket.billingInformation ?? {}) as Record<FieldName, string>,
          errors: refusal.errors,
          fieldErrors: {} as Partial<Record<FieldName, string>>,
        },
        { status: refusal.status },
      );
    return office.redirect(office.href("checkout/billing-information"));
  }
  const values = Object.fromEntries(FIELDS.map(({ name }) => [name, String(form.get(name) ?? "").trim()])) as Record<
    FieldName,
    string
  >;

  const t = getFixedT(office.language);
  const fieldErrors: Partial<Record<FieldName, string>> = {};
  for (const { name } of FIELDS) if (!values[name]) fieldErrors[name] = t("forms.errors.required");
  if (values.email && !EMAIL.test(values.email)) fieldErrors.email = t("forms.errors.email");
  if (Object.keys(fieldErrors).length > 0) return office.data({ values, errors: [], fieldErrors }, { status: 400 });

  try {
    await api.post("/frontend/billing-information", { basketId: basket.id, ...values });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return office.data(
      { values, errors: error.errors, fieldErrors: error.fieldErrors as Partial<Record<FieldName, string>> },
      { status: error.status },
    );
  }
  return office.redirect(office.href("checkout/payment-method"));
}
