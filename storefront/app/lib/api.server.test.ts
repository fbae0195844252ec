import type { TokenPair } from "@ticketing/shared/schemas/auth";
import { describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient, type LoginAuth } from "./api.server";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function fakeApi(answer: (path: string, init: RequestInit) => Response) {
  const calls: { path: string; init: RequestInit }[] = [];
  const apiFetch = vi.fn(async (path: string, init: RequestInit = {}) => {
    calls.push({ path, init });
    return answer(path, init);
  });
  return { context: { apiFetch }, calls };
}

function memoryAuth(initial: TokenPair) {
  let tokens: TokenPair | null = initial;
  const auth: LoginAuth = {
    tokens: () => tokens,
    refreshed: (renewed) => {
      tokens = renewed;
    },
    expired: async () => {
      tokens = null;
      throw new Error("expired");
    },
  };
  return { auth, current: () => tokens };
}

const bearer = (init: RequestInit) => new Headers(init.headers).get("Authorization");

describe("API client", () => {
  it("speaks snake_case on the wire and camelCase to the app, in the visitor's language", async () => {
    const { context, calls } = fakeApi(() => json(201, { id: 11, node_id: 2, option_node_ids: [3] }));
    const api = createApiClient({ context, locale: "fr" });
    const item = await api.post("/frontend/selected-nodes", { basketId: 7, nodeId: 2, optionNodeIds: [3] });
    expect(item).toEqual({ id: 11, nodeId: 2, optionNodeIds: [3] });
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ basket_id: 7, node_id: 2, option_node_ids: [3] });
    expect(new Headers(calls[0]?.init.headers).get("Accept-Language")).toBe("fr");
  });

  it("renews an expired access token once and retries with the new one", async () => {
    const { context, calls } = fakeApi((path, init) => {
      if (path === "/auth/token/refresh") return json(200, { access_token: "a2", refresh_token: "r2" });
      return bearer(init) === "Bearer a2" ? json(200, []) : json(401, { errors: ["expired"] });
    });
    const { auth, current } = memoryAuth({ accessToken: "a1", refreshToken: "r1" });
    await expect(createApiClient({ context, locale: "en", auth }).get("/frontend/baskets")).resolves.toEqual([]);
    expect(JSON.parse(String(calls[1]?.init.body))).toEqual({ refresh_token: "r1" });
    expect(current()).toEqual({ accessToken: "a2", refreshToken: "r2" });
    expect(calls).toHaveLength(3);
  });

  it("gives the login up when the refresh token is refused too", async () => {
    const { context } = fakeApi(() => json(401, { errors: ["nope"] }));
    const { auth, current } = memoryAuth({ accessToken: "a1", refreshToken: "r1" });
    await expect(createApiClient({ context, locale: "en", auth }).get("/frontend/baskets")).rejects.toThrow("expired");
    expect(current()).toBeNull();
  });

  it("hands 400 and 409 messages to the caller, field errors in camelCase", async () => {
    const { context } = fakeApi(() => json(400, { errors: ["Invalid"], field_errors: { postal_code: "Required" } }));
    const error = await createApiClient({ context, locale: "en" })
      .post("/x")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, errors: ["Invalid"], fieldErrors: { postalCode: "Required" } });
  });

  it("turns 404 into the not-found page", async () => {
    const { context } = fakeApi(() => json(404, { errors: ["Unknown event"] }));
    const error = await createApiClient({ context, locale: "en" })
      .get("/events/public-infos")
      .catch((e: unknown) => e);
    // A thrown `data(…, {status: 404})`: React Router renders its error boundary with a 404 status.
    expect(error).toMatchObject({ init: { status: 404 } });
  });
});
