// Test helpers: the API is faked at the `fetch` boundary only, so conversion, headers, errors and
// refresh are exercised through the real providers.
import { vi } from "vitest";
import { createAuthProvider, createSession, type Tokens } from "./authProvider.ts";
import { createApiClient, createDataProvider } from "./dataProvider.ts";

export const API = "http://api.test/api/v1";

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Route = (call: RecordedCall) => Response | Promise<Response>;

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/** Replaces global fetch; `route` answers each call, `calls` records them (path without the API base). */
export function mockFetch(route: Route) {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input);
      const text = typeof init.body === "string" ? init.body : undefined;
      const call: RecordedCall = {
        method: init.method ?? "GET",
        path: url.pathname.replace(new URL(API).pathname, ""),
        query: url.searchParams,
        headers: new Headers(init.headers),
        body: text === undefined ? undefined : JSON.parse(text),
      };
      calls.push(call);
      return route(call);
    }),
  );
  return calls;
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      items.set(key, value);
    },
    removeItem: (key: string) => {
      items.delete(key);
    },
  };
}

export function setupProviders(tokens?: Tokens) {
  const storage = memoryStorage();
  const session = createSession(storage);
  if (tokens) session.setTokens(tokens);
  const api = createApiClient({ url: API, session, getLanguage: () => "fr" });
  return {
    storage,
    session,
    dataProvider: createDataProvider(api),
    authProvider: createAuthProvider({ api, session }),
  };
}
