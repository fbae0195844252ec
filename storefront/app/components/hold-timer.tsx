import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { formatTime } from "#app/lib/format.ts";
import type { HoldTimer } from "#app/lib/hold-timer.ts";

/**
 * Until when the buyer's tickets are held, and "Keep my tickets for N more minutes" while renewals are left
 * (WCAG 2.2.1, docs/decisions/0042). The button is a plain form post, there at all times: without JavaScript
 * nothing can warn a buyer without a reload, so one who needs longer asks whenever they look. Near the end the box
 * says so; with JavaScript on, root.tsx's script says it when that time comes ([data-hold-warn-at]).
 * `action`: the page to post to, when the box is drawn outside that page's own route (the checkout's frame).
 */
export function HoldTimerBox({ hold, errors, action }: { hold: HoldTimer; errors?: string[]; action?: string }) {
  const { t, i18n } = useTranslation();
  const time = formatTime(hold.endsAt, i18n.language);
  const warning = t("hold.endsSoon", { time });
  return (
    <section
      className={hold.isNear ? "alert alert-warning hold-timer" : "alert hold-timer"}
      aria-label={t("hold.title")}
      data-hold-warn-at={hold.isNear ? undefined : hold.warnFrom}
    >
      {/* Empty until the end is near: a live region already there is announced when its text comes. */}
      <p className="hold-timer-warning" role="alert" data-hold-warning={warning}>
        {hold.isNear ? warning : null}
      </p>
      <p>{t("basket.heldUntil", { time })}</p>
      <ErrorMessages errors={errors} />
      {hold.renewalsLeft > 0 ? (
        <Form method="post" action={action} className="hold-timer-keep">
          <button type="submit" name="intent" value="keepHold" className="button">
            {t("hold.keep", { count: hold.minutes })}
          </button>
          <span className="small">{t("hold.renewalsLeft", { count: hold.renewalsLeft })}</span>
        </Form>
      ) : (
        <p>{t("hold.noRenewalsLeft", { time })}</p>
      )}
    </section>
  );
}
