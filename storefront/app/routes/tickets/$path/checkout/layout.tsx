import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useMatches } from "react-router";
import { ErrorPage } from "#app/components/error-page.tsx";
import { HoldTimerBox } from "#app/components/hold-timer.tsx";
import type { HoldTimer } from "#app/lib/hold-timer.ts";
import type { Route } from "./+types/layout";

const STEPS = [
  ["forms", "checkout.steps.forms"],
  ["billing-information", "checkout.steps.billingInformation"],
  ["payment-method", "checkout.steps.paymentMethod"],
] as const;

/**
 * The checkout wizard's frame. Its guards run in each step's loader (docs/specification.md §2.3), not here. Each
 * step's loader also says how the basket's hold stands (`hold`): the box is drawn here, once, and posts to the step
 * (its action keeps the tickets longer, and a refusal shows in the step's own error summary).
 */
export default function Checkout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const step = useMatches().at(-1)?.loaderData as { hold?: HoldTimer | null } | undefined;
  return (
    <>
      <nav aria-label={t("checkout.steps.label")}>
        <ol className="steps">
          {STEPS.map(([step, label]) => (
            <li key={step} aria-current={pathname.endsWith(`/checkout/${step}`) ? "step" : undefined}>
              {t(label)}
            </li>
          ))}
        </ol>
      </nav>
      {step?.hold && <HoldTimerBox hold={step.hold} action={pathname} />}
      <Outlet />
    </>
  );
}

/** A step's refusal (registrations closed) inside the ticket office's frame, in place of the steps. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
