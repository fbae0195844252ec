import turboUrl from "@hotwired/turbo/dist/turbo.es2017-esm.js?url";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Links, Meta, Outlet } from "react-router";
import { Link } from "#app/components/link.tsx";
import type { Route } from "./+types/root";
import { ErrorPage } from "./components/error-page";
import { SiteFooter } from "./components/site-footer";
import { useCspNonce } from "./lib/csp-nonce";
import styles from "./styles.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," }, // no favicon yet: spares browsers a request that would 404
];

export function Layout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const nonce = useCspNonce();
  return (
    <html lang={i18n.language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {/* Turbo Drive: no prefetch on hover, no stale snapshot of a basket on "back". */}
        <meta name="turbo-prefetch" content="false" />
        <meta name="turbo-cache-control" content="no-cache" />
        {/* The page's policy allows only scripts and styles carrying its nonce (docs/decisions/0007); Turbo reads
            it here for its progress bar's <style>. */}
        {nonce && <meta name="csp-nonce" content={nonce} />}
        <script
          type="module"
          nonce={nonce}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script; the only value is JSON-encoded
          dangerouslySetInnerHTML={{ __html: enhancement(turboUrl) }}
        />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t("nav.skipToContent")}
        </a>
        <header className="site-header">
          <Link to="/" className="site-name">
            {t("nav.siteName")}
          </Link>
        </header>
        {/* Focusable by the skip link alone (not by Tab): following it moves the focus here, so the next Tab goes on
            from the page's content in every browser, with JavaScript (Turbo focuses an anchor's target) or not. */}
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}

/**
 * The ticket office ships no framework JavaScript (docs/decisions/0006): pages are rendered on the server and
 * every step is a link or a form post. With JavaScript on, Turbo Drive fetches links and form posts and swaps
 * the page without a full reload, marks the submitting form busy and disables its button, and shows a
 * progress bar. A `<meta http-equiv="refresh">` only works on a page the browser loaded itself: for pages Turbo
 * swaps in, this script honours it.
 */
function enhancement(turbo: string) {
  return `import * as Turbo from ${JSON.stringify(turbo)};
let refresh;
let isFirstLoad = true;
document.addEventListener("turbo:load", () => {
  clearTimeout(refresh);
  const meta = document.querySelector('meta[http-equiv="refresh"]');
  if (isFirstLoad || !meta) { isFirstLoad = false; return; }
  const [seconds, target] = meta.content.split(";");
  const url = (target || "").trim().replace(/^url=/i, "") || location.href;
  refresh = setTimeout(() => Turbo.visit(url, { action: "replace" }), Number(seconds) * 1000);
});
// A refused form comes back with its error summary: put the reader there, as WCAG's error identification asks.
document.addEventListener("turbo:render", () => document.querySelector("[data-error-summary]")?.focus());
// Countdowns ([data-countdown]): tick every second, go on at 0, stop on request.
let countdown;
document.addEventListener("turbo:load", () => {
  clearInterval(countdown);
  const element = document.querySelector("[data-countdown]");
  if (!element) return;
  const text = element.querySelector("[data-countdown-text]");
  const stop = element.querySelector("[data-countdown-stop]");
  let left = Number(element.dataset.countdown);
  const say = (n) => (n === 1 ? element.dataset.countdownOne : element.dataset.countdownOther.replace("99", String(n)));
  stop.hidden = false;
  stop.addEventListener("click", () => { clearInterval(countdown); stop.hidden = true; element.hidden = true; });
  countdown = setInterval(() => {
    left -= 1;
    text.textContent = say(Math.max(0, left));
    if (left <= 0) { clearInterval(countdown); Turbo.visit(element.dataset.countdownTo); }
  }, 1000);
});
// A hold's end coming near ([data-hold-warn-at], components/hold-timer.tsx): the warning's live region says so then.
let holdWarning;
document.addEventListener("turbo:load", () => {
  clearTimeout(holdWarning);
  const box = document.querySelector("[data-hold-warn-at]");
  if (!box) return;
  holdWarning = setTimeout(() => {
    box.classList.add("alert-warning");
    const warning = box.querySelector("[data-hold-warning]");
    warning.textContent = warning.dataset.holdWarning;
  }, Math.max(0, Date.parse(box.dataset.holdWarnAt) - Date.now()));
});`;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
