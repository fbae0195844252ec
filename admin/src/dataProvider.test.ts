import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "./test-support.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };

afterEach(() => {
  vi.unstubAllGlobals();
});

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("dataProvider: case conversion", () => {
  it("sends filter keys and the sort field in snake_case and reads the list in camelCase", async () => {
    const calls = mockFetch(() =>
      jsonResponse(
        [
          {
            id: 1,
            unit_id: 3,
            frontend_path: "demo",
            start_date: "2026-12-01T18:00:00Z",
            access_methods: ["anonymous"],
          },
        ],
        200,
        { "Content-Range": "events 10-19/42" },
      ),
    );
    const { dataProvider } = setupProviders(tokens);

    const { data, total } = await dataProvider.getList("events", {
      pagination: { page: 2, perPage: 10 },
      sort: { field: "startDate", order: "DESC" },
      filter: { unitId: 3, status: "public", q: "fest" },
    });

    expect(calls[0]?.path).toBe("/events");
    expect(JSON.parse(calls[0]?.query.get("sort") ?? "")).toEqual(["start_date", "DESC"]);
    expect(JSON.parse(calls[0]?.query.get("range") ?? "")).toEqual([10, 19]);
    expect(JSON.parse(calls[0]?.query.get("filter") ?? "")).toEqual({ unit_id: 3, status: "public", q: "fest" });
    expect(data).toEqual([
      { id: 1, unitId: 3, frontendPath: "demo", startDate: "2026-12-01T18:00:00Z", accessMethods: ["anonymous"] },
    ]);
    expect(total).toBe(42);
  });

  it("reads nested answers in camelCase (a basket's billing information)", async () => {
    mockFetch(() =>
      jsonResponse(
        [{ id: 7, registrations_count: 2, billing_information: { first_name: "Ada", last_name: "Lovelace" } }],
        200,
        { "Content-Range": "baskets 0-0/1" },
      ),
    );
    const { dataProvider } = setupProviders(tokens);

    const { data } = await dataProvider.getList("baskets", {
      pagination: { page: 1, perPage: 25 },
      sort: { field: "createdAt", order: "DESC" },
      filter: { eventId: 1 },
    });

    expect(data[0]).toEqual({
      id: 7,
      registrationsCount: 2,
      billingInformation: { firstName: "Ada", lastName: "Lovelace" },
    });
  });

  it("sends the reference target of getManyReference in snake_case", async () => {
    const calls = mockFetch(() => jsonResponse([], 200, { "Content-Range": "baskets 0-0/0" }));
    const { dataProvider } = setupProviders(tokens);

    await dataProvider.getManyReference("baskets", {
      target: "eventId",
      id: 5,
      pagination: { page: 1, perPage: 25 },
      sort: { field: "id", order: "ASC" },
      filter: { isTesting: false },
    });

    expect(JSON.parse(calls[0]?.query.get("filter") ?? "")).toEqual({ is_testing: false, event_id: 5 });
  });

  it("sends a created record in snake_case, with dates as ISO strings", async () => {
    const calls = mockFetch(() => jsonResponse({ id: 9, unit_id: 1, frontend_title: "Festival" }, 201));
    const { dataProvider } = setupProviders(tokens);

    const { data } = await dataProvider.create("events", {
      data: { unitId: 1, frontendTitle: "Festival", startDate: new Date("2026-12-01T18:00:00Z") },
    });

    expect(calls[0]).toMatchObject({
      method: "POST",
      path: "/events",
      body: { unit_id: 1, frontend_title: "Festival", start_date: "2026-12-01T18:00:00.000Z" },
    });
    expect(data).toEqual({ id: 9, unitId: 1, frontendTitle: "Festival" });
  });

  it("updates with only the changed fields, in snake_case", async () => {
    const calls = mockFetch(() => jsonResponse({ id: 1, status: "public", welcome_text: "Hi" }));
    const { dataProvider } = setupProviders(tokens);
    const previousData = {
      id: 1,
      status: "draft",
      welcomeText: "",
      ticketOfficeUrl: "http://localhost:3000/tickets/demo",
      accessMethods: ["anonymous"],
    };

    await dataProvider.update("events", {
      id: 1,
      data: { ...previousData, status: "public", welcomeText: "Hi", accessMethods: ["anonymous"] },
      previousData,
    });

    expect(calls[0]).toMatchObject({
      method: "PUT",
      path: "/events/1",
      body: { status: "public", welcome_text: "Hi" },
    });
  });

  it("lists an event's articles and adds one in cents through the custom methods", async () => {
    const calls = mockFetch((call) =>
      call.method === "GET"
        ? jsonResponse([
            {
              node_id: 2,
              parent_id: 1,
              configuration_id: 2,
              title: "Day pass",
              price: 4500,
              stock: { limit_id: 1, maximum: 50, reserved: 1, sold: 2, remaining: 47 },
            },
          ])
        : jsonResponse({ node: { id: 3 }, configuration: { id: 3 }, limit: { id: 2 }, price_rule: { id: 4 } }, 201),
    );
    const { dataProvider } = setupProviders(tokens);

    const { data: articles } = await dataProvider.getArticles(5);
    const { data: added } = await dataProvider.addArticle(5, {
      title: "Night pass",
      price: 2550,
      stock: 100,
      parentId: 1,
    });

    expect(calls[0]).toMatchObject({ method: "GET", path: "/events/5/articles" });
    expect(articles[0]).toEqual({
      nodeId: 2,
      parentId: 1,
      configurationId: 2,
      title: "Day pass",
      price: 4500,
      stock: { limitId: 1, maximum: 50, reserved: 1, sold: 2, remaining: 47 },
    });
    expect(calls[1]).toMatchObject({
      method: "POST",
      path: "/events/5/articles",
      body: { title: "Night pass", price: 2550, stock: 100, parent_id: 1 },
    });
    expect(added.priceRule).toEqual({ id: 4 });
  });

  it("sets a unit's Stripe secrets (in snake_case) and removes them through the custom methods", async () => {
    const unit = { id: 4, name: "Jazz", is_stripe_configured: true, stripe_webhook_url: "https://x/webhook/4" };
    const calls = mockFetch((call) =>
      jsonResponse(call.method === "DELETE" ? { ...unit, is_stripe_configured: false } : unit),
    );
    const { dataProvider } = setupProviders(tokens);

    const { data: set } = await dataProvider.setUnitStripe(4, {
      secretKey: "sk_test_0123456789abcdef",
      webhookSecret: "whsec_0123456789abcdef",
    });
    const { data: removed } = await dataProvider.removeUnitStripe(4);

    expect(calls[0]).toMatchObject({
      method: "PUT",
      path: "/units/4/stripe",
      body: { secret_key: "sk_test_0123456789abcdef", webhook_secret: "whsec_0123456789abcdef" },
    });
    expect(set).toMatchObject({ isStripeConfigured: true, stripeWebhookUrl: "https://x/webhook/4" });
    expect(calls[1]).toMatchObject({ method: "DELETE", path: "/units/4/stripe" });
    expect(removed.isStripeConfigured).toBe(false);
  });

  it("lists an event's check-ins under the event's path, scans a ticket and reads the door's figures", async () => {
    const counts = { sold: 5, checked_in: 2 };
    const calls = mockFetch((call) =>
      call.method === "POST"
        ? jsonResponse({ outcome: "checked_in", reason: null, ticket: null, check_in: null, counts }, 201)
        : call.path.endsWith("/counts")
          ? jsonResponse(counts)
          : jsonResponse([{ id: 3, holder_name: "Ada", checked_in_at: null }], 200, {
              "Content-Range": "check-ins 0-0/1",
            }),
    );
    const { dataProvider } = setupProviders(tokens);

    const { data, total } = await dataProvider.getList("check-ins", {
      pagination: { page: 1, perPage: 25 },
      sort: { field: "checkedInAt", order: "DESC" },
      filter: { eventId: 7, checkedIn: false, preview: true },
    });
    const { data: scan } = await dataProvider.checkIn(7, { code: "abc.def", preview: true });
    const { data: figures } = await dataProvider.getCheckInCounts(7, true);

    expect(calls[0]?.path).toBe("/events/7/check-ins");
    expect(JSON.parse(calls[0]?.query.get("filter") ?? "")).toEqual({ checked_in: false, preview: true });
    expect(JSON.parse(calls[0]?.query.get("sort") ?? "")).toEqual(["checked_in_at", "DESC"]);
    expect({ data, total }).toEqual({ data: [{ id: 3, holderName: "Ada", checkedInAt: null }], total: 1 });
    expect(calls[1]).toMatchObject({
      method: "POST",
      path: "/events/7/check-ins",
      body: { code: "abc.def", preview: true },
    });
    expect(scan.counts).toEqual({ sold: 5, checkedIn: 2 });
    expect(calls[2]).toMatchObject({ method: "GET", path: "/events/7/check-ins/counts" });
    expect(calls[2]?.query.get("preview")).toBe("true");
    expect(figures).toEqual({ sold: 5, checkedIn: 2 });
  });

  it("carries the bearer token and the interface language", async () => {
    const calls = mockFetch(() => jsonResponse({ id: 1 }));
    const { dataProvider } = setupProviders(tokens);

    await dataProvider.getOne("events", { id: 1 });

    expect(calls[0]?.headers.get("Authorization")).toBe("Bearer access-1");
    expect(calls[0]?.headers.get("Accept-Language")).toBe("fr");
  });
});

describe("dataProvider: errors", () => {
  it("turns a 400 with field errors into inline camelCase field errors and a notification message", async () => {
    mockFetch(() =>
      jsonResponse(
        { errors: ["The event could not be saved"], field_errors: { frontend_path: "This path is already used" } },
        400,
      ),
    );
    const { dataProvider } = setupProviders(tokens);

    const error = await rejection(dataProvider.create("events", { data: { frontendPath: "demo" } }));

    expect(error.status).toBe(400);
    expect(error.message).toBe("The event could not be saved");
    expect(error.body.errors).toEqual({
      frontendPath: "This path is already used",
      root: { serverError: "The event could not be saved" },
    });
  });

  it("camelCases nested field paths and joins a field's several messages", async () => {
    mockFetch(() =>
      jsonResponse({ errors: [], field_errors: { "billing_information.first_name": ["Required", "Too short"] } }, 400),
    );
    const { dataProvider } = setupProviders(tokens);

    const error = await rejection(dataProvider.create("baskets", { data: {} }));

    expect(error.message).toBe("ra.message.invalid_form");
    expect(error.body.errors).toEqual({
      "billingInformation.firstName": "Required Too short",
      root: { serverError: "ra.message.invalid_form" },
    });
  });

  it("shows the messages of a 400 whose body is a list of strings (docs/specification.md §5)", async () => {
    mockFetch(() => jsonResponse(["Start must be before end", "Path is reserved"], 400));
    const { dataProvider } = setupProviders(tokens);

    const error = await rejection(
      dataProvider.update("events", { id: 1, data: { name: "x" }, previousData: { id: 1 } }),
    );

    expect(error.message).toBe("Start must be before end\nPath is reserved");
    expect(error.body.errors).toEqual({ root: { serverError: "Start must be before end\nPath is reserved" } });
  });

  it("shows the unexpected-error message for a 400 without readable messages (docs/specification.md §5)", async () => {
    mockFetch(() => jsonResponse({ detail: "nope" }, 400));
    const { dataProvider } = setupProviders(tokens);

    const error = await rejection(dataProvider.getOne("events", { id: 1 }));

    expect(error.message).toBe("admin.errors.unexpected");
    expect(error.body.errors).toBeUndefined();
  });

  it("keeps the status and the messages of a 409", async () => {
    mockFetch(() => jsonResponse({ errors: ["Editing is locked: the event is not a draft"] }, 409));
    const { dataProvider } = setupProviders(tokens);

    const error = await rejection(dataProvider.addArticle(1, { title: "A", price: 0, stock: 1 }));

    expect(error.status).toBe(409);
    expect(error.message).toBe("Editing is locked: the event is not a draft");
  });
});

describe("dataProvider: password change", () => {
  it("keeps the session's new tokens: the API refuses the old access token once the password changed", async () => {
    const calls = mockFetch((call) =>
      call.headers.get("Authorization") === "Bearer access-1"
        ? jsonResponse({ detail: "Your password has been changed.", access_token: "access-2", refresh_token: "r-2" })
        : jsonResponse({ errors: ["Authentication required"] }, 401),
    );
    const { dataProvider, session } = setupProviders(tokens);

    const { data } = await dataProvider.changePassword({
      currentPassword: "correct-horse-battery-1!",
      password: "another-secret-3!",
      passwordConfirmation: "another-secret-3!",
    });

    expect(data).toEqual({ detail: "Your password has been changed." });
    expect(calls[0]?.body).toEqual({
      current_password: "correct-horse-battery-1!",
      password: "another-secret-3!",
      password_confirmation: "another-secret-3!",
    });
    expect(session.getTokens()).toEqual({ accessToken: "access-2", refreshToken: "r-2" });
  });
});
