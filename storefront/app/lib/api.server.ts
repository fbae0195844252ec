// The one door to the API (docs/api.md). Converts the snake_case wire to camelCase here and nowhere else.

import { camelizeKeys, type QueryValues, snakifyKeys, toSnakeQuery } from "@ticketing/shared/case";
import { deviceCookiesOf, deviceSetCookies } from "@ticketing/shared/device-cookies";
import type { TokenPair } from "@ticketing/shared/schemas/auth";
import { type AppLoadContext, data } from "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /**
     * Set by the product server (api/src/server.ts): answers an API call in-process.
     * `path` is relative to `/api/v1`. Absent when the storefront is deployed on its own.
     */
    apiFetch?: (path: string, init?: RequestInit) => Promise<Response>;
  }
}

/** A 400 or 409 answer: messages for the visitor, and per-field messages for forms (keys in camelCase). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(`API answered ${status}: ${errors.join("; ")}`);
  }
}

/** The status of a refusal the API client threw: an ApiError (400, 409) or a 403/404 page response. */
export function refusedStatus(error: unknown): number | null {
  if (error instanceof ApiError) return error.status;
  const init = (error as { init?: ResponseInit | null } | null)?.init;
  return typeof init?.status === "number" ? init.status : null;
}

/** How a client acting for a ticket-office login finds, renews and gives up its tokens. */
export interface LoginAuth {
  tokens(): TokenPair | null;
  refreshed(tokens: TokenPair): void;
  /** Called when the tokens cannot be renewed; must throw (a redirect to the login page). */
  expired(): Promise<never>;
}

type Transport = (path: string, init?: RequestInit) => Promise<Response>;

function transport(context: AppLoadContext | undefined): Transport {
  if (context?.apiFetch) return context.apiFetch;
  const base = process.env.API_URL ?? "http://localhost:3000/api/v1";
  return (path, init) => fetch(`${base}${path}`, init);
}

async function readErrors(response: Response): Promise<{ errors: string[]; fieldErrors: Record<string, string> }> {
  const body = camelizeKeys<{
    errors?: unknown;
    fieldErrors?: Record<string, string>;
  } | null>(await response.json().catch(() => null));
  const errors = Array.isArray(body?.errors) ? body.errors.filter((e): e is string => typeof e === "string") : [];
  return { errors, fieldErrors: body?.fieldErrors ?? {} };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient({
  context,
  locale,
  auth,
  accessToken,
}: {
  context: AppLoadContext | undefined;
  locale: string;
  /** Acting as a ticket-office login, with token renewal. */
  auth?: LoginAuth;
  /** Acting once with a given token (a staff member opening a preview). */
  accessToken?: string;
}) {
  const send = transport(context);

  function call(path: string, init: RequestInit, accessToken: string | undefined) {
    const headers = new Headers(init.headers);
    headers.set("Accept-Language", locale);
    if (!headers.has("Accept")) headers.set("Accept", "application/json");
    if (init.body !== undefined) headers.set("Content-Type", "application/json");
    if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
    return send(path, { ...init, headers });
  }

  async function renew(refreshToken: string): Promise<TokenPair | null> {
    const response = await call(
      "/auth/token/refresh",
      { method: "POST", body: JSON.stringify({ refresh_token: refreshToken }) },
      undefined,
    );
    return response.ok ? camelizeKeys<TokenPair>(await response.json()) : null;
  }

  /** Sends the request; on 401 renews the login's tokens once and retries (docs/specification.md §8). */
  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const tokens = auth?.tokens();
    let response = await call(path, init, tokens?.accessToken ?? accessToken);
    if (response.status === 401 && auth) {
      const renewed = tokens ? await renew(tokens.refreshToken) : null;
      if (!renewed) return auth.expired();
      auth.refreshed(renewed);
      response = await call(path, init, renewed.accessToken);
      if (response.status === 401) return auth.expired();
    }
    if (response.ok) return response;
    const { errors, fieldErrors } = await readErrors(response);
    // 403 and 404 become the matching error page; 400 and 409 are for the caller to show.
    if (response.status === 403 || response.status === 404) throw data({ errors }, { status: response.status });
    throw new ApiError(response.status, errors, fieldErrors);
  }

  async function json<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await request(path, init);
    const text = await response.text();
    return camelizeKeys<T>(text ? JSON.parse(text) : null);
  }

  const withQuery = (path: string, query?: QueryValues) => {
    const search = query ? toSnakeQuery(query).toString() : "";
    return search ? `${path}?${search}` : path;
  };

  /**
   * A sign-in on the visitor's behalf: the device cookies of their request (`cookieHeader`) go to the API, and the
   * device cookies of its answer come back, for the visitor's (docs/decisions/0033). No other cookie goes either way.
   */
  async function signIn<T>(path: string, body: object, cookieHeader: string | null) {
    const cookies = deviceCookiesOf(cookieHeader);
    const response = await request(path, {
      method: "POST",
      body: JSON.stringify(snakifyKeys(body)),
      headers: cookies ? { Cookie: cookies } : {},
    });
    return {
      answer: camelizeKeys<T>(await response.json()),
      setCookies: deviceSetCookies(response.headers.getSetCookie()),
    };
  }

  return {
    get: <T>(path: string, query?: QueryValues) => json<T>(withQuery(path, query)),
    signIn,
    post: <T>(path: string, body: object = {}) =>
      json<T>(path, { method: "POST", body: JSON.stringify(snakifyKeys(body)) }),
    put: <T>(path: string, body: object = {}) =>
      json<T>(path, { method: "PUT", body: JSON.stringify(snakifyKeys(body)) }),
    delete: <T>(path: string) => json<T>(path, { method: "DELETE" }),
    /** The raw successful answer, for bodies that are not JSON (PDF tickets). */
    raw: (path: string, accept: string) => request(path, { headers: { Accept: accept } }),
  };
}
