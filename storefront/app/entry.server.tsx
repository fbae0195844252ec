import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  ServerRouter,
} from "react-router";
import { getLanguage, i18nFor } from "./i18n.server";
import { CspNonceContext } from "./lib/csp-nonce";

declare module "react-router" {
  interface AppLoadContext {
    /** Set by the product server: writes a server-side error to the request's log lines (api/src/lib/log.ts). */
    reportError?: (error: unknown) => void;
  }
}

export const streamTimeout = 5_000;

/** The console when the storefront runs on its own (`react-router dev`). */
const reportError = (context: AppLoadContext | undefined, error: unknown) =>
  (context?.reportError ?? console.error)(error);

/**
 * A loader's, an action's or a render's error: to the product's log. Not a visitor's aborted request, nor a path
 * no route matches (a 404: the request's line says it).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  reportError(context as AppLoadContext, error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce;
  const i18n = i18nFor(await getLanguage(request));

  // The ticket office has no Suspense boundary (no deferred data, no <Scripts/>): its shell is the whole document.
  // It is rendered to one string, answered as one body with its length (the same HTML for crawlers and people):
  // streaming it into a Node stream and gathering the chunks again cost about a tenth of a page's CPU for the same
  // bytes. An error in the render throws here, as a shell error did, and React Router's handleError reports it.
  const html = renderToString(
    <CspNonceContext value={nonce}>
      <I18nextProvider i18n={i18n}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </I18nextProvider>
    </CspNonceContext>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}
