// The login links of docs/design.md §4: the trusted-email link and the third-party link log the visitor in.
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { loader as thirdPartyLoader } from "#app/routes/tickets/$path/login/third-party/$token/route.tsx";
import { loader as verifyLoader } from "#app/routes/tickets/$path/login/verify/$loginPk/$token/route.tsx";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 4, frontend_path: "demo", access_methods: ["trusted_email"] };
const login = { access_token: "a1", refresh_token: "r1", login: { id: 9, event_id: 1, testing: false } };

/** An API that accepts the token `good` only, and records the bodies it was sent. */
function fakeApi() {
  const bodies: Record<string, unknown>[] = [];
  const apiFetch = async (path: string, init: RequestInit = {}) => {
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    const body = JSON.parse(String(init.body));
    bodies.push(body);
    const token = body.validation_token ?? body.token;
    return token === "good" ? json(200, login) : json(400, { errors: ["Could not validate email, please try again"] });
  };
  return { context: { apiFetch }, bodies };
}

const args = (url: string, params: Record<string, string>, context: ReturnType<typeof fakeApi>["context"]) =>
  ({ request: new Request(url), params: { path: "demo", ...params }, context }) as never;

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Response,
  );

async function savedLogin(response: Response | null) {
  const session = await sessionStorage.getSession(response?.headers.get("Set-Cookie"));
  return session.get("logins")?.[loginKey(1, false)];
}

describe("trusted-email link", () => {
  it("validates the link, keeps the login and follows nextUrl", async () => {
    const { context, bodies } = fakeApi();
    const response = await thrown(
      verifyLoader(
        args(
          "http://localhost/tickets/demo/login/verify/9/good?nextUrl=%2Ftickets%2Fdemo%2Fcompletion",
          {
            loginPk: "9",
            token: "good",
          },
          context,
        ),
      ),
    );
    expect(response?.headers.get("Location")).toBe("/tickets/demo/completion");
    expect(await savedLogin(response)).toEqual({ accessToken: "a1", refreshToken: "r1" });
    expect(bodies[0]).toEqual({ active_module_id: 4, login_pk: 9, validation_token: "good", is_testing: false });
  });

  it("does not follow a nextUrl off the site", async () => {
    const { context } = fakeApi();
    const url = "http://localhost/tickets/demo/login/verify/9/good?nextUrl=https%3A%2F%2Fevil.example";
    const response = await thrown(verifyLoader(args(url, { loginPk: "9", token: "good" }, context)));
    expect(response?.headers.get("Location")).toBe("/tickets/demo/buy");
  });

  it("shows the API's message for a used or wrong link, without a login", async () => {
    const { context } = fakeApi();
    const url = "http://localhost/tickets/demo/login/verify/9/used";
    const result = (await verifyLoader(args(url, { loginPk: "9", token: "used" }, context))) as unknown as {
      data: { errors: string[] };
      init: ResponseInit;
    };
    expect(result.data.errors).toEqual(["Could not validate email, please try again"]);
    expect(result.init.status).toBe(400);
  });
});

describe("third-party link", () => {
  it("logs in with a valid token and opens buy; a refused one shows the failure", async () => {
    const { context, bodies } = fakeApi();
    const response = await thrown(
      thirdPartyLoader(args("http://localhost/tickets/demo/login/third-party/good", { token: "good" }, context)),
    );
    expect(response?.headers.get("Location")).toBe("/tickets/demo/buy");
    expect(await savedLogin(response)).toEqual({ accessToken: "a1", refreshToken: "r1" });
    expect(bodies[0]).toEqual({ active_module_id: 4, token: "good", is_testing: false });

    const refused = (await thirdPartyLoader(
      args("http://localhost/tickets/demo/login/third-party/bad", { token: "bad" }, context),
    )) as unknown as { init: ResponseInit };
    expect(refused.init.status).toBe(400);
  });
});
