import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTH_TOKEN_KEY } from "./authProvider.ts";
import { jsonResponse, mockFetch, type RecordedCall, setupProviders } from "./test-support.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };
const rotated = { access_token: "access-2", refresh_token: "refresh-2" };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The API side of a session: access-1 expired, refresh-1 rotates into access-2 / refresh-2. */
function expiredAccessApi(options: { refresh?: "works" | "fails"; retried?: "ok" | "refused" } = {}) {
  const { refresh = "works", retried = "ok" } = options;
  return (call: RecordedCall) => {
    if (call.path === "/auth/token/refresh") {
      return refresh === "works" ? jsonResponse(rotated) : jsonResponse({ errors: ["Invalid refresh token"] }, 401);
    }
    const authorization = call.headers.get("Authorization");
    if (authorization === "Bearer access-2" && retried === "ok") return jsonResponse({ id: 1, frontend_path: "demo" });
    return jsonResponse({ errors: ["Token expired"] }, 401);
  };
}

const refreshCalls = (calls: RecordedCall[]) => calls.filter((call) => call.path === "/auth/token/refresh");

describe("authProvider: login and logout", () => {
  it("logs in with email and password and stores both tokens under the auth token key", async () => {
    const calls = mockFetch(() => jsonResponse({ access_token: "access-1", refresh_token: "refresh-1" }));
    const { authProvider, storage } = setupProviders();

    await authProvider.login({ email: "organiser@example.org", password: "correct horse battery" });

    expect(calls[0]).toMatchObject({
      method: "POST",
      path: "/auth/login",
      body: { email: "organiser@example.org", password: "correct horse battery" },
    });
    expect(calls[0]?.headers.has("Authorization")).toBe(false);
    expect(JSON.parse(storage.items.get(AUTH_TOKEN_KEY) ?? "")).toEqual(tokens);
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it("answers a refused login with the API's sentence (already translated) and stores nothing", async () => {
    mockFetch(() => jsonResponse({ errors: ["Please confirm your email address first"] }, 400));
    const { authProvider, storage } = setupProviders();

    await expect(authProvider.login({ email: "organiser@example.org", password: "nope" })).rejects.toThrow(
      "Please confirm your email address first",
    );
    expect(storage.items.size).toBe(0);
    await expect(authProvider.checkAuth({})).rejects.toEqual({ message: false, redirectTo: "/admin/auth/login" });
  });

  it("answers a refusal without a sentence with the wrong-credentials message", async () => {
    mockFetch(() => jsonResponse({}, 401));
    const { authProvider } = setupProviders();

    await expect(authProvider.login({ email: "organiser@example.org", password: "nope" })).rejects.toThrow(
      "admin.auth.wrongCredentials",
    );
  });

  it("logs out by revoking the refresh token and clearing the stored tokens", async () => {
    const calls = mockFetch(() => new Response(null, { status: 204 }));
    const { authProvider, storage } = setupProviders(tokens);

    await expect(authProvider.logout({})).resolves.toBe("/admin/auth/login");

    expect(calls[0]).toMatchObject({ method: "POST", path: "/auth/logout", body: { refresh_token: "refresh-1" } });
    expect(storage.items.has(AUTH_TOKEN_KEY)).toBe(false);
  });

  it("reads the identity from /auth/me", async () => {
    mockFetch(() =>
      jsonResponse({
        user_id: 4,
        frontend_login_ids: [],
        user: { id: 4, email: "o@example.org", first_name: "Olga", last_name: "Organiser", is_superuser: false },
      }),
    );
    const { authProvider } = setupProviders(tokens);

    await expect(authProvider.getIdentity?.()).resolves.toEqual({
      id: 4,
      fullName: "Olga Organiser",
      email: "o@example.org",
      isSuperuser: false,
    });
  });
});

describe("authProvider: refresh on 401", () => {
  it("refreshes once with the refresh token and retries the call with the rotated access token", async () => {
    const calls = mockFetch(expiredAccessApi());
    const { dataProvider, storage } = setupProviders(tokens);

    const { data } = await dataProvider.getOne("events", { id: 1 });

    expect(data).toEqual({ id: 1, frontendPath: "demo" });
    expect(calls.map((call) => `${call.method} ${call.path} ${call.headers.get("Authorization") ?? "-"}`)).toEqual([
      "GET /events/1 Bearer access-1",
      "POST /auth/token/refresh -",
      "GET /events/1 Bearer access-2",
    ]);
    expect(refreshCalls(calls)[0]?.body).toEqual({ refresh_token: "refresh-1" });
    expect(JSON.parse(storage.items.get(AUTH_TOKEN_KEY) ?? "")).toEqual({
      accessToken: "access-2",
      refreshToken: "refresh-2",
    });
  });

  it("shares one refresh between calls refused at the same time (the refresh token is single-use)", async () => {
    const calls = mockFetch(expiredAccessApi());
    const { dataProvider } = setupProviders(tokens);

    const answers = await Promise.all([
      dataProvider.getOne("events", { id: 1 }),
      dataProvider.getOne("events", { id: 1 }),
      dataProvider.getOne("events", { id: 1 }),
    ]);

    expect(answers).toHaveLength(3);
    expect(refreshCalls(calls)).toHaveLength(1);
  });

  it("does not refresh again when the retried call is refused too, and lets the 401 through", async () => {
    const calls = mockFetch(expiredAccessApi({ retried: "refused" }));
    const { dataProvider } = setupProviders(tokens);

    await expect(dataProvider.getOne("events", { id: 1 })).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls(calls)).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it("when the refresh is refused, clears the tokens and lets checkError log out", async () => {
    mockFetch(expiredAccessApi({ refresh: "fails" }));
    const { dataProvider, authProvider, storage } = setupProviders(tokens);

    const error = await dataProvider.getOne("events", { id: 1 }).catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
    expect(storage.items.has(AUTH_TOKEN_KEY)).toBe(false);
    await expect(authProvider.checkError(error)).rejects.toMatchObject({ redirectTo: "/admin/auth/login" });
    await expect(authProvider.checkAuth({})).rejects.toEqual({ message: false, redirectTo: "/admin/auth/login" });
  });

  it("does not try to refresh without a session", async () => {
    const calls = mockFetch(expiredAccessApi());
    const { dataProvider } = setupProviders();

    await expect(dataProvider.getOne("events", { id: 1 })).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls(calls)).toHaveLength(0);
  });

  it("keeps the user signed in on 403 and 404", async () => {
    const { authProvider } = setupProviders(tokens);

    await expect(authProvider.checkError(new HttpError("Forbidden", 403))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new HttpError("Not found", 404))).resolves.toBeUndefined();
  });
});
