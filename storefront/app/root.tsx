import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/site-footer";
import styles from "./styles.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," }, // no favicon yet: spares browsers a request that would 404
];

export function Layout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  return (
    <html lang={i18n.language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
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
        <main id="main" className="page">
          {children}
        </main>
        <SiteFooter />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  const title =
    status === 404
      ? t("errors.notFound")
      : status === 403
        ? t("errors.forbidden")
        : status >= 500
          ? t("errors.internal")
          : t("errors.code", { errorCode: status });
  return (
    <>
      <title>{title}</title>
      <h1>{title}</h1>
      {status === 403 && <p>{t("errors.forbiddenText")}</p>}
      <p>
        <Link to="/">{t("errors.backHome")}</Link>
      </p>
    </>
  );
}
