import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { ErrorPage } from "#app/components/error-page.tsx";
import type { Route } from "./+types/layout";

const STEPS = [
  ["forms", "checkout.steps.forms"],
  ["billing-information", "checkout.steps.billingInformation"],
  ["payment-method", "checkout.steps.paymentMethod"],
] as const;

/** The checkout wizard's frame. Its guards run in each step's loader (docs/specification.md §2.3), not here. */
export default function Checkout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
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
      <Outlet />
    </>
  );
}

/** A step's refusal (registrations closed) inside the ticket office's frame, in place of the steps. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
