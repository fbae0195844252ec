import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
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

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers get the whole document at once; people get the shell as soon as it is ready.
    const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext value={nonce}>
        <I18nextProvider i18n={i18n}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </CspNonceContext>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are already reported by React Router's handleError.
          if (shellRendered) reportError(loadContext, error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
