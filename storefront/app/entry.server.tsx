import { Writable } from "node:stream";
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
    // The ticket office has no Suspense boundary (no deferred data, no <Scripts/>): its shell is the whole document,
    // so streaming it sent the same bytes later, in several writes through a Node stream turned into a web stream.
    // The document is gathered and answered as one body with its length: the same HTML for crawlers and people, and
    // less work per page.
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    body.on("finish", () => {
      clearTimeout(timeout);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
    });
    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext value={nonce}>
        <I18nextProvider i18n={i18n}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </CspNonceContext>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready are reported by React Router's handleError (onShellError rejects).
          if (shellRendered) reportError(loadContext, error);
        },
      },
    );
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}
