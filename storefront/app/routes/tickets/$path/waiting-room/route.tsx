import type { WaitingRoomPlace } from "@ticketing/shared/schemas/waiting-room";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { ErrorPage } from "#app/components/error-page.tsx";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { formatDateRange } from "#app/lib/format.ts";
import { roundedWait, waitingRoomHref } from "#app/lib/waiting-room.ts";
import type { Route } from "./+types/route";

export { action, loader } from "./route.server";

/**
 * The page reloads itself by its `Refresh` header (route.server.ts), which a browser honours on a page it loaded
 * itself, with or without JavaScript. Turbo Drive fetches pages instead (and a fetch ignores that header): this asks
 * it to load the room as a whole page. No `<meta http-equiv="refresh">`: axe counts a delayed one as a failure of
 * WCAG 2.2.1, and the root's script would follow it on top of the header.
 */
export const meta: Route.MetaFunction = () => [{ name: "turbo-visit-control", content: "reload" }];

/** A document's headers are its routes' `headers`, not its loaders' (cookies aside): the page passes its Refresh on. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const refresh = loaderHeaders.get("Refresh");
  return refresh ? [["Refresh", refresh]] : [];
};

/** An instant as the office writes dates (a range of one instant is that instant, written once). */
const formatInstant = (iso: string, language: string) => formatDateRange(iso, iso, language);

/** A fact of the place: its label (with the language's colon) and its value. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p>
      {label} <strong>{children}</strong>
    </p>
  );
}

/** Where the buyer stands, as lines that read as sentences in the live region (and stay readable at any width). */
function PlaceFacts({ place }: { place: WaitingRoomPlace }) {
  const { t, i18n } = useTranslation();
  if (place.state === "before_opening") {
    return (
      <>
        {place.opensAt && <Fact label={t("waitingRoom.opensAt")}>{formatInstant(place.opensAt, i18n.language)}</Fact>}
        <Fact label={t("waitingRoom.yourPlace")}>{t("waitingRoom.drawnAtOpening")}</Fact>
      </>
    );
  }
  const wait = place.estimatedWaitSeconds === null ? null : roundedWait(place.estimatedWaitSeconds);
  return (
    <>
      {place.position !== null && (
        <Fact label={t("waitingRoom.yourPlace")}>{new Intl.NumberFormat(i18n.language).format(place.position)}</Fact>
      )}
      {place.ahead !== null && (
        <Fact label={t("waitingRoom.ahead")}>{t("waitingRoom.aheadCount", { count: place.ahead })}</Fact>
      )}
      {wait && place.state === "waiting" && (
        <Fact label={t("waitingRoom.estimatedWait")}>
          {wait.unit === "underAMinute"
            ? t("waitingRoom.wait.underAMinute")
            : t(`waitingRoom.wait.${wait.unit}`, { count: wait.count })}
        </Fact>
      )}
    </>
  );
}

/** A turn that passed: a plain form, so that joining again needs no JavaScript. */
function JoinAgain() {
  const { t } = useTranslation();
  return (
    <>
      <p className="alert alert-warning" role="status">
        {t("waitingRoom.lapsed")}
      </p>
      <Form method="post" className="stack">
        <p className="muted">{t("waitingRoom.joinAgainHint")}</p>
        <button type="submit" className="button button-primary">
          {t("waitingRoom.joinAgain")}
        </button>
      </Form>
    </>
  );
}

export default function WaitingRoom({ loaderData: { place, errors }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  const title = t("waitingRoom.title");
  const isMoving = place !== null && place.state !== "lapsed";
  return (
    <section className="narrow">
      <title>{title}</title>
      <h1>{title}</h1>
      <ErrorMessages errors={[...errors, ...(actionData?.errors ?? [])]} />
      <p>{t("waitingRoom.intro")}</p>
      {place && place.state !== "lapsed" && (
        <div role="status">
          <div className="alert alert-info">
            <PlaceFacts place={place} />
          </div>
          {place.state === "paused" && <p className="alert alert-warning">{t("waitingRoom.paused")}</p>}
        </div>
      )}
      {place?.state === "before_opening" && <p>{t("waitingRoom.draw")}</p>}
      {place?.state === "lapsed" && <JoinAgain />}
      {(isMoving || place === null) && (
        <p className="muted">
          {isMoving && <>{t("waitingRoom.refreshes", { seconds: place.refreshSeconds })} </>}
          <Link to={waitingRoomHref(base)}>{t("waitingRoom.checkNow")}</Link>
        </p>
      )}
    </section>
  );
}

/** Inside the ticket office's frame, like its other pages. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
