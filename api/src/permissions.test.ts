// Walks EVERY route of the API (from the router's own list: a new route without an expectation here fails the
// first test) as an anonymous caller, an outsider, a member, an owner and a superuser (docs/design.md §4
// "Permissions"). Each case gets fresh target rows, so a delete by one actor does not hide the next one's.
import { eq, run, schema } from "@ticketing/db";
import { API_TOKEN_SCOPES, type ApiTokenScope } from "@ticketing/shared/api-scopes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptSecret } from "./lib/secrets.ts";
import { createUser } from "./services/accounts/sessions.ts";
import { addArticle } from "./services/catalogue/catalogue.ts";
import { createEvent } from "./services/events/events.ts";
import { createBuyer, createTestContext, loginAs, type TestContext } from "./test-support.ts";

type Actor = "anonymous" | "outsider" | "member" | "owner" | "superuser";
const ACTORS: Actor[] = ["anonymous", "outsider", "member", "owner", "superuser"];
/** A status, or "hidden": 200 and the target's id is not in the list. */
type Outcome = number | "hidden";

interface Target {
  unitId: number;
  eventId: number;
  requestedEventId: number;
  publicEventId: number;
  rootNodeId: number;
  nodeId: number;
  configurationId: number;
  cartConfigurationId: number;
  spareConfigurationId: number;
  spareCartConfigurationId: number;
  limitId: number;
  priceRuleId: number;
  promotionCodeId: number;
  conditionId: number;
  spareConditionId: number;
  statementId: number;
  tagId: number;
  accessId: number;
  availabilityId: number;
  extraInfoGroupId: number;
  extraInfoId: number;
  pointOfSaleId: number;
  waitingListEntryId: number;
  basketId: number;
  invoiceId: number;
  membershipId: number;
  memberUserId: number;
  freshEmail: string;
  apiTokenId: number;
  webhookId: number;
  webhookDeliveryId: number;
}

interface Case {
  path: (t: Target) => string;
  body?: (t: Target) => unknown;
  /** which id must (not) appear in a list answer */
  listed?: (t: Target) => number;
  expect: Partial<Record<Actor, Outcome>>;
  /** The call ends the caller's session and answers its new tokens, which the next cases use. */
  renewsSession?: true;
}

const PASSWORD = "correct-horse-battery-1!";
const ok = (status: number): Partial<Record<Actor, Outcome>> => ({
  anonymous: 401,
  outsider: 404,
  member: status,
  owner: status,
  superuser: status,
});
const list = (): Partial<Record<Actor, Outcome>> => ({
  anonymous: 401,
  outsider: "hidden",
  member: 200,
  owner: 200,
  superuser: 200,
});
const unitManagement = (status: number): Partial<Record<Actor, Outcome>> => ({
  anonymous: 401,
  outsider: 404,
  member: 403,
  owner: status,
  superuser: status,
});
const moderator: Partial<Record<Actor, Outcome>> = {
  anonymous: 401,
  outsider: 404,
  member: 403,
  owner: 403,
  superuser: 200,
};
const anySignedIn = (status: number): Partial<Record<Actor, Outcome>> => ({
  anonymous: 401,
  outsider: status,
  member: status,
  owner: status,
  superuser: status,
});
/** Not a back-office route: reached without a back-office token (signature, login or basket ownership guard it). */
const publicRoute = (status: number): Partial<Record<Actor, Outcome>> => ({ anonymous: status });

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

function catalogue(
  resource: string,
  idOf: (t: Target) => number,
  create: (t: Target) => unknown,
  update: unknown,
  deletable: (t: Target) => number = idOf,
): Record<string, Case> {
  return {
    [`GET /${resource}`]: {
      path: (t) => `/${resource}?filter=${encodeURIComponent(JSON.stringify({ event_id: t.eventId }))}`,
      listed: idOf,
      expect: list(),
    },
    [`POST /${resource}`]: { path: () => `/${resource}`, body: create, expect: ok(201) },
    [`GET /${resource}/:id`]: { path: (t) => `/${resource}/${idOf(t)}`, expect: ok(200) },
    [`PUT /${resource}/:id`]: { path: (t) => `/${resource}/${idOf(t)}`, body: () => update, expect: ok(200) },
    [`DELETE /${resource}/:id`]: { path: (t) => `/${resource}/${deletable(t)}`, expect: ok(200) },
  };
}

const CASES: Record<string, Case> = {
  // Accounts: the caller's own, or before any login.
  "POST /auth/login": {
    path: () => "/auth/login",
    body: () => ({ email: "nobody@example.org", password: "wrong-password-1!" }),
    expect: publicRoute(400),
  },
  "POST /auth/token/refresh": {
    path: () => "/auth/token/refresh",
    body: () => ({ refresh_token: "unknown" }),
    expect: publicRoute(401),
  },
  "POST /auth/logout": {
    path: () => "/auth/logout",
    body: () => ({ refresh_token: "unknown" }),
    expect: publicRoute(204),
  },
  "POST /auth/register": {
    path: () => "/auth/register",
    body: () => ({
      email: `new-${unique()}@example.org`,
      first_name: "N",
      last_name: "N",
      password: PASSWORD,
      password_confirmation: PASSWORD,
    }),
    expect: publicRoute(201),
  },
  "POST /auth/register/verify": {
    path: () => "/auth/register/verify",
    body: () => ({ user_id_b64: "MQ", hash: "nope" }),
    expect: publicRoute(400),
  },
  "POST /auth/password-reset-request": {
    path: () => "/auth/password-reset-request",
    body: () => ({ email: `nobody-${unique()}@example.org` }),
    expect: publicRoute(200),
  },
  "POST /auth/password-reset": {
    path: () => "/auth/password-reset",
    body: () => ({ user_id_b64: "MQ", token_b64: "nope", password: PASSWORD, password_confirmation: PASSWORD }),
    expect: publicRoute(400),
  },
  "POST /auth/password-change": {
    path: () => "/auth/password-change",
    body: () => ({ current_password: PASSWORD, password: PASSWORD, password_confirmation: PASSWORD }),
    expect: anySignedIn(200),
    renewsSession: true,
  },
  "GET /auth/me": { path: () => "/auth/me", expect: anySignedIn(200) },
  "GET /users/me": { path: () => "/users/me", expect: anySignedIn(200) },
  "PUT /users/me": { path: () => "/users/me", body: () => ({ first_name: "Renamed" }), expect: anySignedIn(200) },
  "GET /users/:id": { path: (t) => `/users/${t.memberUserId}`, expect: ok(200) },
  "GET /config": { path: () => "/config", expect: publicRoute(200) },

  // Units and memberships: members see, owners manage.
  "GET /units": { path: () => "/units", listed: (t) => t.unitId, expect: list() },
  "POST /units": { path: () => "/units", body: () => ({ name: `Unit ${unique()}` }), expect: anySignedIn(201) },
  "GET /units/:id": { path: (t) => `/units/${t.unitId}`, expect: ok(200) },
  "PUT /units/:id": {
    path: (t) => `/units/${t.unitId}`,
    body: () => ({ description: "Changed" }),
    expect: unitManagement(200),
  },
  // The unit's Stripe secrets: write-only, the owners' (services/unit-stripe.test.ts checks no answer carries them).
  "PUT /units/:id/stripe": {
    path: (t) => `/units/${t.unitId}/stripe`,
    body: () => ({
      secret_key: "sk_test_51Hx9mQ2eZvKYlo2C0a1b2c3d4e5f6g7h8i9j0k",
      webhook_secret: "whsec_Zq8Yk3Lm5Np7Rt9Vx1Bz3Dc5Fg7Hj9Kl",
    }),
    expect: unitManagement(200),
  },
  "DELETE /units/:id/stripe": { path: (t) => `/units/${t.unitId}/stripe`, expect: unitManagement(200) },
  // The unit's API tokens: its owners' (the tokens themselves: services/accounts/api-tokens.test.ts).
  "GET /units/:id/api-tokens": { path: (t) => `/units/${t.unitId}/api-tokens`, expect: unitManagement(200) },
  "POST /units/:id/api-tokens": {
    path: (t) => `/units/${t.unitId}/api-tokens`,
    body: () => ({ name: "Door", scopes: ["check_in"] }),
    expect: unitManagement(201),
  },
  "DELETE /units/:id/api-tokens/:tokenId": {
    path: (t) => `/units/${t.unitId}/api-tokens/${t.apiTokenId}`,
    expect: unitManagement(200),
  },
  // Webhooks (docs/decisions/0045): the unit's owners and superusers only, never an API token.
  "GET /units/:id/webhooks": { path: (t) => `/units/${t.unitId}/webhooks`, expect: unitManagement(200) },
  "POST /units/:id/webhooks": {
    path: (t) => `/units/${t.unitId}/webhooks`,
    body: () => ({ url: "https://hooks.example.org/in", events: ["order.paid"] }),
    expect: unitManagement(201),
  },
  "GET /units/:id/webhooks/:webhookId": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}`,
    expect: unitManagement(200),
  },
  "PUT /units/:id/webhooks/:webhookId": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}`,
    body: () => ({ description: "Changed" }),
    expect: unitManagement(200),
  },
  "DELETE /units/:id/webhooks/:webhookId": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}`,
    expect: unitManagement(200),
  },
  "POST /units/:id/webhooks/:webhookId/roll-secret": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}/roll-secret`,
    body: () => ({}),
    expect: unitManagement(200),
  },
  "POST /units/:id/webhooks/:webhookId/ping": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}/ping`,
    body: () => ({}),
    expect: unitManagement(201),
  },
  "GET /units/:id/webhooks/:webhookId/deliveries": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}/deliveries`,
    expect: unitManagement(200),
  },
  "POST /units/:id/webhooks/:webhookId/deliveries/:deliveryId/resend": {
    path: (t) => `/units/${t.unitId}/webhooks/${t.webhookId}/deliveries/${t.webhookDeliveryId}/resend`,
    body: () => ({}),
    expect: unitManagement(201),
  },
  "GET /memberships": {
    path: (t) => `/memberships?filter=${encodeURIComponent(JSON.stringify({ unit_id: t.unitId }))}`,
    listed: (t) => t.membershipId,
    expect: list(),
  },
  "POST /memberships": {
    path: () => "/memberships",
    body: (t) => ({ unit_id: t.unitId, email: t.freshEmail, role: "member" }),
    expect: unitManagement(201),
  },
  "GET /memberships/:id": { path: (t) => `/memberships/${t.membershipId}`, expect: ok(200) },
  "PUT /memberships/:id": {
    path: (t) => `/memberships/${t.membershipId}`,
    body: () => ({ role: "owner" }),
    expect: unitManagement(200),
  },
  "DELETE /memberships/:id": { path: (t) => `/memberships/${t.membershipId}`, expect: unitManagement(200) },

  // Events and moderation.
  "GET /events/public-infos": {
    path: (t) => `/events/public-infos?path=${t.publicEventId}-missing`,
    expect: publicRoute(404),
  },
  "GET /events": { path: () => "/events", listed: (t) => t.eventId, expect: list() },
  "POST /events": {
    path: () => "/events",
    body: (t) => ({
      unit_id: t.unitId,
      name: "E",
      frontend_title: "E",
      frontend_path: `p-${unique()}`,
      start_date: "2030-01-01T10:00:00Z",
      end_date: "2030-01-01T12:00:00Z",
    }),
    expect: ok(201),
  },
  "GET /events/:id": { path: (t) => `/events/${t.eventId}`, expect: ok(200) },
  "PUT /events/:id": { path: (t) => `/events/${t.eventId}`, body: () => ({ name: "Renamed" }), expect: ok(200) },
  "DELETE /events/:id": { path: (t) => `/events/${t.eventId}`, expect: ok(200) },
  "POST /events/:id/moderation/request": {
    path: (t) => `/events/${t.eventId}/moderation/request`,
    body: () => ({}),
    expect: ok(200),
  },
  "POST /events/:id/moderation/approve": {
    path: (t) => `/events/${t.requestedEventId}/moderation/approve`,
    body: () => ({}),
    expect: moderator,
  },
  "POST /events/:id/moderation/request-changes": {
    path: (t) => `/events/${t.requestedEventId}/moderation/request-changes`,
    body: () => ({ description: "Add a refund policy" }),
    expect: moderator,
  },
  "GET /events/:id/communication": { path: (t) => `/events/${t.eventId}/communication`, expect: ok(200) },
  "PUT /events/:id/communication": {
    path: (t) => `/events/${t.eventId}/communication`,
    body: () => ({ confirmation_page_text_en: "See you there!" }),
    expect: ok(200),
  },
  "POST /events/:id/communication/mail-preview": {
    path: (t) => `/events/${t.eventId}/communication/mail-preview`,
    body: () => ({ mail: "order_confirmation", language: "fr" }),
    expect: ok(200),
  },
  "POST /events/:id/communication/pdf-ticket-preview": {
    path: (t) => `/events/${t.eventId}/communication/pdf-ticket-preview`,
    body: () => ({ pdf_ticket_text_en: "Doors open at 7 pm" }),
    expect: ok(200),
  },
  "POST /events/:id/communication/test-mail": {
    path: (t) => `/events/${t.eventId}/communication/test-mail`,
    body: () => ({ mail: "payment_reminder" }),
    expect: ok(201),
  },
  "GET /events/:id/articles": { path: (t) => `/events/${t.eventId}/articles`, expect: ok(200) },
  "POST /events/:id/articles": {
    path: (t) => `/events/${t.eventId}/articles`,
    body: () => ({ title: "Extra", price: 100, stock: 5 }),
    expect: ok(201),
  },
  "GET /registration-modules": {
    path: (t) => `/registration-modules?filter=${encodeURIComponent(JSON.stringify({ event: t.eventId }))}`,
    expect: ok(200),
  },

  // The element tree.
  // A configuration still used by a node is not deletable (409, tested elsewhere): delete a spare one.
  ...catalogue(
    "node-configurations",
    (t) => t.configurationId,
    (t) => ({ event_id: t.eventId, category: "article", title: "New" }),
    { title: "Renamed" },
    (t) => t.spareConfigurationId,
  ),
  ...catalogue(
    "node-cart-configurations",
    (t) => t.cartConfigurationId,
    (t) => ({ event_id: t.eventId }),
    { weight: 2 },
    (t) => t.spareCartConfigurationId,
  ),
  ...catalogue(
    "nodes",
    (t) => t.nodeId,
    (t) => ({
      event_id: t.eventId,
      parent_id: t.rootNodeId,
      configuration_id: t.configurationId,
      cart_configuration_id: t.cartConfigurationId,
    }),
    { order: 3 },
  ),
  ...catalogue(
    "node-limits",
    (t) => t.limitId,
    (t) => ({ event_id: t.eventId, maximum: 5 }),
    { maximum: 10 },
  ),
  ...catalogue(
    "node-price-rules",
    (t) => t.priceRuleId,
    (t) => ({ event_id: t.eventId, mode: "set", value: 100 }),
    { value: 200 },
  ),
  ...catalogue(
    "promotion-codes",
    (t) => t.promotionCodeId,
    (t) => ({ event_id: t.eventId, name: "Code", value: `C${unique()}` }),
    { name: "Renamed" },
  ),

  ...catalogue(
    "conditions",
    (t) => t.conditionId,
    (t) => ({ event_id: t.eventId, name: "VIP", logical_operator: "or" }),
    { name: "Renamed" },
    (t) => t.spareConditionId,
  ),
  ...catalogue(
    "statements",
    (t) => t.statementId,
    (t) => ({
      event_id: t.eventId,
      condition_id: t.conditionId,
      left_hand_operand: "user_email",
      operator: "contains",
      right_hand_value: "@example.org",
    }),
    { right_hand_value: "@example.com" },
  ),
  ...catalogue(
    "node-tags",
    (t) => t.tagId,
    (t) => ({ event_id: t.eventId, name: "Family", node_configuration_id: t.configurationId }),
    { name: "Kids" },
  ),
  ...catalogue(
    "node-accesses",
    (t) => t.accessId,
    (t) => ({
      event_id: t.eventId,
      label: "Members",
      condition_id: t.conditionId,
      node_configuration_ids: [t.configurationId],
    }),
    { is_accessible: false },
  ),
  ...catalogue(
    "node-availabilities",
    (t) => t.availabilityId,
    (t) => ({ event_id: t.eventId, name: "Early", starts_at: "2030-01-01T00:00:00Z", ends_at: "2030-02-01T00:00:00Z" }),
    { name: "Late" },
  ),
  ...catalogue(
    "node-extra-info-groups",
    (t) => t.extraInfoGroupId,
    (t) => ({ event_id: t.eventId, name: "Attendee", node_configuration_ids: [t.configurationId] }),
    { is_required: true },
  ),
  ...catalogue(
    "node-extra-infos",
    (t) => t.extraInfoId,
    (t) => ({ event_id: t.eventId, group_id: t.extraInfoGroupId, name: "Birth date", type: "dateMajor" }),
    { is_required: true },
  ),
  ...catalogue(
    "points-of-sale",
    (t) => t.pointOfSaleId,
    (t) => ({ event_id: t.eventId, title: "Box office" }),
    { location: "Main entrance" },
  ),

  "POST /nodes/:id/move": {
    path: (t) => `/nodes/${t.nodeId}/move`,
    body: (t) => ({ parent_id: t.rootNodeId, order: 0 }),
    expect: ok(200),
  },
  "POST /node-price-rules/:id/move": {
    path: (t) => `/node-price-rules/${t.priceRuleId}/move`,
    body: (t) => ({ node_id: t.nodeId, direction: "down" }),
    expect: ok(200),
  },
  "POST /nodes/:id/duplicate": { path: (t) => `/nodes/${t.nodeId}/duplicate`, body: () => ({}), expect: ok(201) },
  "GET /events/:id/price-preview": {
    path: (t) => `/events/${t.eventId}/price-preview?email=a@example.org`,
    expect: ok(200),
  },
  // How the event's sales stand (the figures themselves: routes/event-sales.test.ts).
  "GET /events/:id/stocks": { path: (t) => `/events/${t.eventId}/stocks?preview=true`, expect: ok(200) },
  "GET /events/:id/dashboard": { path: (t) => `/events/${t.eventId}/dashboard`, expect: ok(200) },
  // The door: a scan of a code that is not ours is answered (refused), never a 4xx, for staff of the event's unit.
  "POST /events/:id/check-ins": {
    path: (t) => `/events/${t.eventId}/check-ins`,
    body: () => ({ code: "not-a-ticket" }),
    expect: ok(200),
  },
  "GET /events/:id/check-ins": { path: (t) => `/events/${t.eventId}/check-ins`, expect: ok(200) },
  "GET /events/:id/check-ins/counts": { path: (t) => `/events/${t.eventId}/check-ins/counts`, expect: ok(200) },
  // Offline check-in (docs/decisions/0048): a door's scans sent later, the tickets scanned on two devices, the
  // snapshot a door keeps; for staff of the event's unit, as the live scan.
  "POST /events/:id/check-ins/sync": {
    path: (t) => `/events/${t.eventId}/check-ins/sync`,
    body: () => ({
      device_id: "permissions-walk",
      scans: [{ code: "not-a-ticket", scanned_at: new Date().toISOString() }],
    }),
    expect: ok(200),
  },
  "GET /events/:id/check-ins/doubles": { path: (t) => `/events/${t.eventId}/check-ins/doubles`, expect: ok(200) },
  "GET /events/:id/check-ins/snapshot": { path: (t) => `/events/${t.eventId}/check-ins/snapshot`, expect: ok(200) },
  // The event's waiting room (the target has one, opening in 2030): staff who see the event run it (the rules
  // themselves: routes/waiting-room.test.ts).
  "GET /events/:id/waiting-room": { path: (t) => `/events/${t.eventId}/waiting-room`, expect: ok(200) },
  "PUT /events/:id/waiting-room": {
    path: (t) => `/events/${t.eventId}/waiting-room`,
    body: () => ({ opens_at: "2029-12-01T09:00:00.000Z", rate_per_minute: 50, admission_minutes: 10 }),
    expect: ok(200),
  },
  ...Object.fromEntries(
    ["open-now", "pause", "resume", "end"].map((action) => [
      `POST /events/:id/waiting-room/${action}`,
      { path: (t: Target) => `/events/${t.eventId}/waiting-room/${action}`, body: () => ({}), expect: ok(200) },
    ]),
  ),
  // The event's waiting list (the target has one, with an entry in line, and buyers who sign in by email): staff who
  // see the event run it (the rules themselves: services/waiting-list/organiser.test.ts).
  "GET /events/:id/waiting-list": { path: (t) => `/events/${t.eventId}/waiting-list`, expect: ok(200) },
  "PUT /events/:id/waiting-list": {
    path: (t) => `/events/${t.eventId}/waiting-list`,
    body: () => ({ accepting: true, automatic: false, offer_minutes: 60, partial_offers: false }),
    expect: ok(200),
  },
  "GET /events/:id/waiting-list/entries": {
    path: (t) => `/events/${t.eventId}/waiting-list/entries`,
    expect: ok(200),
  },
  "POST /events/:id/waiting-list/entries/:entryId/offer": {
    path: (t) => `/events/${t.eventId}/waiting-list/entries/${t.waitingListEntryId}/offer`,
    body: () => ({}),
    expect: ok(200),
  },
  "DELETE /events/:id/waiting-list/entries/:entryId": {
    path: (t) => `/events/${t.eventId}/waiting-list/entries/${t.waitingListEntryId}`,
    expect: ok(200),
  },
  // Cancelling an event (docs/decisions/0047): staff who see it see what it would do; its unit's owners and
  // superusers cancel it (the target's public event), retry its refunds and mark them paid back by hand (404: the
  // event is not cancelled). The rules themselves: services/events/cancellation.test.ts.
  "GET /events/:id/cancellation": { path: (t) => `/events/${t.eventId}/cancellation`, expect: ok(200) },
  "POST /events/:id/cancellation": {
    path: (t) => `/events/${t.publicEventId}/cancellation`,
    body: () => ({ message: "Cancelled", message_fr: "Annulé" }),
    expect: unitManagement(201),
  },
  "POST /events/:id/cancellation/retry": {
    path: (t) => `/events/${t.publicEventId}/cancellation/retry`,
    body: () => ({}),
    expect: unitManagement(404),
  },
  "POST /events/:id/cancellation/baskets/:basketId/refunded-by-hand": {
    path: (t) => `/events/${t.publicEventId}/cancellation/baskets/${t.basketId}/refunded-by-hand`,
    body: () => ({}),
    expect: unitManagement(404),
  },
  "POST /uploaded-images": { path: () => "/uploaded-images", body: () => "not multipart", expect: { anonymous: 401 } },
  "GET /uploaded-images/:id/file": { path: () => "/uploaded-images/999999/file", expect: publicRoute(404) },

  // Sales.
  "GET /baskets": {
    path: (t) => `/baskets?filter=${encodeURIComponent(JSON.stringify({ event_id: t.publicEventId }))}`,
    listed: (t) => t.basketId,
    expect: list(),
  },
  "GET /baskets/:id": { path: (t) => `/baskets/${t.basketId}`, expect: ok(200) },
  // An export of the event's baskets: the list's permissions, and a 404 (not an empty file) for an outsider.
  "GET /exports/:list": {
    path: (t) =>
      `/exports/baskets?format=csv&filter=${encodeURIComponent(JSON.stringify({ event_id: t.publicEventId }))}`,
    expect: ok(200),
  },
  // A buyer's personal data (ADR 0046): owners of the unit and superusers; a member of it 403, an outsider 404.
  "GET /personal-data": {
    path: (t) => `/personal-data?email=${encodeURIComponent(t.freshEmail)}&unit_id=${t.unitId}`,
    expect: unitManagement(200),
  },
  "POST /personal-data/erasures": {
    path: () => "/personal-data/erasures",
    body: (t) => ({ email: t.freshEmail, confirmation: t.freshEmail.toUpperCase(), unit_id: t.unitId }),
    expect: unitManagement(201),
  },
  "GET /personal-data/erasures": {
    path: (t) => `/personal-data/erasures?unit_id=${t.unitId}`,
    expect: unitManagement(200),
  },
  // Members and owners may refund (the refunds themselves, 201 for a member: services/refunds.test.ts); the target
  // basket is not paid, so whoever may see it is refused with 409 after the 404 of outsiders.
  "POST /baskets/:id/refunds": {
    path: (t) => `/baskets/${t.basketId}/refunds`,
    body: () => ({ reason: "Asked by the buyer" }),
    expect: ok(409),
  },
  // The target basket is not paid: whoever may see it is told there is nothing to confirm, or no valid ticket
  // (the actions themselves: services/sales.test.ts).
  "POST /baskets/:id/confirmation-mail": {
    path: (t) => `/baskets/${t.basketId}/confirmation-mail`,
    body: () => ({}),
    expect: ok(409),
  },
  "GET /baskets/:id/tickets": { path: (t) => `/baskets/${t.basketId}/tickets`, expect: ok(409) },

  // The ticket office: a back-office token carries no frontend login (ownership is tested in routes/frontend.test.ts).
  "POST /auth/anonymous-login": {
    path: () => "/auth/anonymous-login",
    body: () => ({ active_module_id: 999_999 }),
    expect: publicRoute(404),
  },
  "POST /auth/trusted-email-login": {
    path: () => "/auth/trusted-email-login",
    body: () => ({ active_module_id: 999_999, email: `a-${unique()}@example.org` }),
    expect: publicRoute(404),
  },
  "POST /auth/trusted-email-login/validate": {
    path: () => "/auth/trusted-email-login/validate",
    body: () => ({ active_module_id: 999_999, login_pk: 1, validation_token: "x" }),
    expect: publicRoute(404),
  },
  "POST /auth/third-party-login": {
    path: () => "/auth/third-party-login",
    body: () => ({ active_module_id: 999_999, token: "x" }),
    expect: publicRoute(404),
  },
  "GET /frontend-logins": { path: () => "/frontend-logins", expect: { anonymous: 401, outsider: 401, superuser: 401 } },
  "GET /frontend/events/:id/tree": {
    path: (t) => `/frontend/events/${t.eventId}/tree`,
    expect: { anonymous: 404, superuser: 404 },
  },
  // The order link: its token is the only key, so without a valid one everybody gets 404; the holder's side (the
  // order, its tickets, another basket's invoice 404, a tampered or expired token 404) is in services/order-links.test.ts.
  "GET /frontend/orders/:token": {
    path: (t) => `/frontend/orders/${t.basketId}.9999999999.${"0".repeat(64)}`,
    expect: { anonymous: 404, owner: 404, superuser: 404 },
  },
  "GET /frontend/orders/:token/tickets": {
    path: (t) => `/frontend/orders/${t.basketId}.9999999999.${"0".repeat(64)}/tickets`,
    expect: { anonymous: 404, owner: 404, superuser: 404 },
  },
  "GET /frontend/orders/:token/tickets/:itemId": {
    path: (t) => `/frontend/orders/${t.basketId}.9999999999.${"0".repeat(64)}/tickets/1`,
    expect: { anonymous: 404, owner: 404, superuser: 404 },
  },
  "GET /frontend/orders/:token/invoices/:id/pdf": {
    path: (t) => `/frontend/orders/${t.basketId}.9999999999.${"0".repeat(64)}/invoices/${t.invoiceId}/pdf`,
    expect: { anonymous: 404, owner: 404, superuser: 404 },
  },
  "GET /frontend/baskets": { path: () => "/frontend/baskets", expect: { anonymous: 401, superuser: 401 } },
  "POST /frontend/baskets": {
    path: () => "/frontend/baskets",
    body: (t) => ({ event_id: t.publicEventId }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/baskets/:id": {
    path: (t) => `/frontend/baskets/${t.basketId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  // The buyer's own side (theirs: 200; another buyer's: 404) is in services/expired-holds.test.ts.
  "POST /frontend/baskets/:id/hold-again": {
    path: (t) => `/frontend/baskets/${t.basketId}/hold-again`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "POST /frontend/selected-nodes": {
    path: () => "/frontend/selected-nodes",
    body: (t) => ({ basket_id: t.basketId, node_id: t.nodeId }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/selected-nodes": {
    path: (t) => `/frontend/selected-nodes?basket_id=${t.basketId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "DELETE /frontend/selected-nodes/:id": {
    path: () => "/frontend/selected-nodes/1",
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/selected-promotion-codes": {
    path: (t) => `/frontend/selected-promotion-codes?basket_id=${t.basketId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "POST /frontend/selected-promotion-codes": {
    path: () => "/frontend/selected-promotion-codes",
    body: (t) => ({ basket_id: t.basketId, value: "X" }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "DELETE /frontend/selected-promotion-codes/:id": {
    path: () => "/frontend/selected-promotion-codes/1",
    expect: { anonymous: 401, superuser: 401 },
  },
  "POST /frontend/billing-information": {
    path: () => "/frontend/billing-information",
    body: (t) => ({
      basket_id: t.basketId,
      first_name: "A",
      last_name: "B",
      email: "a@example.org",
      address: "x",
      postal_code: "1",
      city: "c",
      country: "CH",
    }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "POST /frontend/baskets/:id/checkout": {
    path: (t) => `/frontend/baskets/${t.basketId}/checkout`,
    body: () => ({ payment_method: "online", terms_accepted: true }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/payment-intents": {
    path: (t) => `/frontend/payment-intents?basket_id=${t.basketId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  // The buyer's own side (theirs: 200; another buyer's: 404; not ongoing: 409) is in services/buyer-payments.test.ts.
  "POST /frontend/payment-intents/:id/cancel": {
    path: () => "/frontend/payment-intents/1/cancel",
    body: () => ({}),
    expect: { anonymous: 401, superuser: 401 },
  },
  // The buyer's own side (their order: 200; another buyer's: 404; unpaid: 409) is in routes/ticket-downloads.test.ts.
  "GET /frontend/baskets/:id/tickets": {
    path: (t) => `/frontend/baskets/${t.basketId}/tickets`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/baskets/:id/tickets/:itemId": {
    path: (t) => `/frontend/baskets/${t.basketId}/tickets/1`,
    expect: { anonymous: 401, superuser: 401 },
  },

  "GET /frontend/baskets/:id/forms": {
    path: (t) => `/frontend/baskets/${t.basketId}/forms`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "PUT /frontend/selected-nodes/:id/extra-infos": {
    path: () => "/frontend/selected-nodes/1/extra-infos",
    body: () => ({ answers: [] }),
    expect: { anonymous: 401, superuser: 401 },
  },
  // The buyer's place (a new one 201, their own 200, none yet 404, one per browser and a few per address): in
  // routes/waiting-room.test.ts.
  "POST /frontend/waiting-room": {
    path: () => "/frontend/waiting-room",
    body: (t) => ({ event_id: t.publicEventId }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/waiting-room": {
    path: (t) => `/frontend/waiting-room?event_id=${t.publicEventId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  // A buyer's own entries (theirs: 200; another buyer's: 404; a proved email needed to join): in
  // services/waiting-list/entries.test.ts. An offer is reached by the code its mail carries, whoever calls: a wrong
  // code is 404 (services/waiting-list/offer-links.test.ts).
  "POST /frontend/waiting-list": {
    path: () => "/frontend/waiting-list",
    body: (t) => ({ event_id: t.publicEventId, node_id: t.nodeId }),
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/waiting-list": {
    path: (t) => `/frontend/waiting-list?event_id=${t.publicEventId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "DELETE /frontend/waiting-list/:id": {
    path: (t) => `/frontend/waiting-list/${t.waitingListEntryId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/waiting-list/offers/:id": {
    path: (t) => `/frontend/waiting-list/offers/${t.waitingListEntryId}?code=${"0".repeat(64)}`,
    expect: publicRoute(404),
  },
  "POST /frontend/waiting-list/offers/:id/open": {
    path: (t) => `/frontend/waiting-list/offers/${t.waitingListEntryId}/open`,
    body: () => ({ code: "0".repeat(64) }),
    expect: publicRoute(404),
  },
  "POST /frontend/waiting-list/offers/:id/decline": {
    path: (t) => `/frontend/waiting-list/offers/${t.waitingListEntryId}/decline`,
    body: () => ({ code: "0".repeat(64) }),
    expect: publicRoute(404),
  },
  "GET /frontend/events/:id/confirmation-page": {
    path: (t) => `/frontend/events/${t.publicEventId}/confirmation-page`,
    expect: publicRoute(200),
  },
  "GET /frontend/events/:id/points-of-sale": {
    path: (t) => `/frontend/events/${t.publicEventId}/points-of-sale`,
    expect: publicRoute(200),
  },
  "POST /invoices/:id/mark-paid": {
    path: (t) => `/invoices/${t.invoiceId}/mark-paid`,
    body: () => ({}),
    expect: ok(200),
  },
  "GET /invoices": {
    path: (t) => `/invoices?filter=${encodeURIComponent(JSON.stringify({ event_id: t.publicEventId }))}`,
    listed: (t) => t.invoiceId,
    expect: list(),
  },
  "GET /invoices/:id": { path: (t) => `/invoices/${t.invoiceId}`, expect: ok(200) },
  "GET /invoices/:id/pdf": { path: (t) => `/invoices/${t.invoiceId}/pdf?language=fr`, expect: ok(200) },
  // The buyer's own side (their basket's invoice: 200; another buyer's: 404) is in routes/invoices.test.ts.
  "GET /frontend/invoices": {
    path: (t) => `/frontend/invoices?basket_id=${t.basketId}`,
    expect: { anonymous: 401, superuser: 401 },
  },
  "GET /frontend/invoices/:id/pdf": {
    path: (t) => `/frontend/invoices/${t.invoiceId}/pdf`,
    expect: { anonymous: 401, superuser: 401 },
  },

  // Payments and tickets: guarded by signatures, not by logins.
  "GET /payments/demo/pay/:id": { path: () => "/payments/demo/pay/1?sig=00", expect: publicRoute(404) },
  "POST /payments/demo/pay/:id": {
    path: () => "/payments/demo/pay/1",
    body: () => ({ sig: "00", outcome: "success" }),
    expect: publicRoute(404),
  },
  "POST /payments/demo/webhook": {
    path: () => "/payments/demo/webhook",
    body: () => ({ intent_id: 1, psp_id: "x", outcome: "success" }),
    expect: publicRoute(400),
  },
  // Stripe's signature, checked with the unit's signing secret, is the only guard: a token changes nothing (the
  // signed side is in services/payments/stripe.test.ts).
  "POST /payments/stripe/webhook/:unitId": {
    path: (t) => `/payments/stripe/webhook/${t.unitId}`,
    body: () => ({ id: "evt_forged", object: "event", type: "checkout.session.completed", data: { object: {} } }),
    expect: { anonymous: 400, outsider: 400, member: 400, owner: 400, superuser: 400 },
  },
  "GET /tickets/verify": { path: () => "/tickets/verify?code=forged.code", expect: publicRoute(400) },
  "GET /tickets/public-key": { path: () => "/tickets/public-key", expect: publicRoute(200) },
  "GET /openapi.json": { path: () => "/openapi.json", expect: publicRoute(200) },
  "GET /docs": { path: () => "/docs", expect: publicRoute(200) },
  "GET /docs/scalar.js": { path: () => "/docs/scalar.js", expect: publicRoute(200) },
  // A load balancer polls it without credentials; a token neither is needed nor shows more (states and counts).
  "GET /health": {
    path: () => "/health",
    expect: { anonymous: 200, outsider: 200, member: 200, owner: 200, superuser: 200 },
  },
};

// API tokens (docs/decisions/0044): the scope each route needs, written here, not read from the routes' specs, so
// that a wrong annotation fails. `staff`: a back-office route no token may call (403 whatever its scopes);
// `anonymous`: not a back-office route, where a token counts as no token (the anonymous outcome).
type TokenRule = ApiTokenScope | "staff" | "anonymous";
const catalogueScopes = (resource: string): Record<string, TokenRule> => ({
  [`GET /${resource}`]: "read",
  [`GET /${resource}/:id`]: "read",
  [`POST /${resource}`]: "manage",
  [`PUT /${resource}/:id`]: "manage",
  [`DELETE /${resource}/:id`]: "manage",
});
const notBackOffice = (...routes: string[]): Record<string, TokenRule> =>
  Object.fromEntries(routes.map((route) => [route, "anonymous"]));
const TOKEN_SCOPES: Record<string, TokenRule> = {
  ...notBackOffice(
    "POST /auth/login",
    "POST /auth/token/refresh",
    "POST /auth/logout",
    "POST /auth/register",
    "POST /auth/register/verify",
    "POST /auth/password-reset-request",
    "POST /auth/password-reset",
    "GET /auth/me",
    "GET /config",
    "GET /events/public-infos",
    "GET /uploaded-images/:id/file",
    "POST /auth/anonymous-login",
    "POST /auth/trusted-email-login",
    "POST /auth/trusted-email-login/validate",
    "POST /auth/third-party-login",
    "GET /frontend-logins",
    "GET /frontend/events/:id/tree",
    "GET /frontend/orders/:token",
    "GET /frontend/orders/:token/tickets",
    "GET /frontend/orders/:token/tickets/:itemId",
    "GET /frontend/orders/:token/invoices/:id/pdf",
    "GET /frontend/baskets",
    "POST /frontend/baskets",
    "GET /frontend/baskets/:id",
    "POST /frontend/baskets/:id/hold-again",
    "POST /frontend/selected-nodes",
    "GET /frontend/selected-nodes",
    "DELETE /frontend/selected-nodes/:id",
    "GET /frontend/selected-promotion-codes",
    "POST /frontend/selected-promotion-codes",
    "DELETE /frontend/selected-promotion-codes/:id",
    "POST /frontend/billing-information",
    "POST /frontend/baskets/:id/checkout",
    "GET /frontend/payment-intents",
    "POST /frontend/payment-intents/:id/cancel",
    "GET /frontend/baskets/:id/tickets",
    "GET /frontend/baskets/:id/tickets/:itemId",
    "GET /frontend/baskets/:id/forms",
    "PUT /frontend/selected-nodes/:id/extra-infos",
    "POST /frontend/waiting-room",
    "GET /frontend/waiting-room",
    "POST /frontend/waiting-list",
    "GET /frontend/waiting-list",
    "DELETE /frontend/waiting-list/:id",
    "GET /frontend/waiting-list/offers/:id",
    "POST /frontend/waiting-list/offers/:id/open",
    "POST /frontend/waiting-list/offers/:id/decline",
    "GET /frontend/events/:id/confirmation-page",
    "GET /frontend/events/:id/points-of-sale",
    "GET /frontend/invoices",
    "GET /frontend/invoices/:id/pdf",
    "GET /payments/demo/pay/:id",
    "POST /payments/demo/pay/:id",
    "POST /payments/demo/webhook",
    "POST /payments/stripe/webhook/:unitId",
    "GET /tickets/verify",
    "GET /tickets/public-key",
    "GET /openapi.json",
    "GET /docs",
    "GET /docs/scalar.js",
    "GET /health",
  ),
  // Accounts, units, their people, Stripe secrets and tokens, moderation: signed-in staff only.
  "POST /auth/password-change": "staff",
  "GET /users/me": "staff",
  "PUT /users/me": "staff",
  "GET /users/:id": "staff",
  "GET /units": "staff",
  "POST /units": "staff",
  "GET /units/:id": "staff",
  "PUT /units/:id": "staff",
  "PUT /units/:id/stripe": "staff",
  "DELETE /units/:id/stripe": "staff",
  "GET /units/:id/api-tokens": "staff",
  "POST /units/:id/api-tokens": "staff",
  "DELETE /units/:id/api-tokens/:tokenId": "staff",
  "GET /memberships": "staff",
  "POST /memberships": "staff",
  "GET /memberships/:id": "staff",
  "PUT /memberships/:id": "staff",
  "DELETE /memberships/:id": "staff",
  "POST /events/:id/moderation/approve": "staff",
  "POST /events/:id/moderation/request-changes": "staff",
  // A test mail goes to the signed-in person; refunds, a confirmation sent again and a point-of-sale invoice marked
  // paid move money or give tickets: staff only (docs/decisions/0044).
  "POST /events/:id/communication/test-mail": "staff",
  "POST /baskets/:id/refunds": "staff",
  "POST /baskets/:id/confirmation-mail": "staff",
  "POST /invoices/:id/mark-paid": "staff",
  // Events and their settings.
  "GET /events": "read",
  "POST /events": "manage",
  "GET /events/:id": "read",
  "PUT /events/:id": "manage",
  "DELETE /events/:id": "manage",
  "POST /events/:id/moderation/request": "manage",
  "GET /events/:id/communication": "read",
  "PUT /events/:id/communication": "manage",
  "POST /events/:id/communication/mail-preview": "read",
  "POST /events/:id/communication/pdf-ticket-preview": "read",
  "GET /events/:id/articles": "read",
  "POST /events/:id/articles": "manage",
  "GET /registration-modules": "read",
  ...catalogueScopes("node-configurations"),
  ...catalogueScopes("node-cart-configurations"),
  ...catalogueScopes("nodes"),
  ...catalogueScopes("node-limits"),
  ...catalogueScopes("node-price-rules"),
  ...catalogueScopes("promotion-codes"),
  ...catalogueScopes("conditions"),
  ...catalogueScopes("statements"),
  ...catalogueScopes("node-tags"),
  ...catalogueScopes("node-accesses"),
  ...catalogueScopes("node-availabilities"),
  ...catalogueScopes("node-extra-info-groups"),
  ...catalogueScopes("node-extra-infos"),
  ...catalogueScopes("points-of-sale"),
  "POST /nodes/:id/move": "manage",
  "POST /node-price-rules/:id/move": "manage",
  "POST /nodes/:id/duplicate": "manage",
  "POST /uploaded-images": "manage",
  "GET /events/:id/price-preview": "read",
  "GET /events/:id/waiting-room": "read",
  "PUT /events/:id/waiting-room": "manage",
  "POST /events/:id/waiting-room/open-now": "manage",
  "POST /events/:id/waiting-room/pause": "manage",
  "POST /events/:id/waiting-room/resume": "manage",
  "POST /events/:id/waiting-room/end": "manage",
  "GET /events/:id/waiting-list": "read",
  "PUT /events/:id/waiting-list": "manage",
  "GET /events/:id/waiting-list/entries": "read",
  "POST /events/:id/waiting-list/entries/:entryId/offer": "manage",
  "DELETE /events/:id/waiting-list/entries/:entryId": "manage",
  // Sales and the door.
  "GET /events/:id/stocks": "read",
  "GET /events/:id/dashboard": "read",
  "GET /baskets": "read",
  "GET /baskets/:id": "read",
  "GET /baskets/:id/tickets": "read",
  "GET /exports/:list": "read",
  "GET /invoices": "read",
  "GET /invoices/:id": "read",
  "GET /invoices/:id/pdf": "read",
  "GET /events/:id/check-ins": "read",
  "GET /events/:id/check-ins/counts": "read",
  "POST /events/:id/check-ins": "check_in",
  "POST /events/:id/check-ins/sync": "check_in",
  "GET /events/:id/check-ins/doubles": "read",
  "GET /events/:id/check-ins/snapshot": "check_in",
  // A unit's webhooks: its owners', signed in (docs/decisions/0045).
  "GET /units/:id/webhooks": "staff",
  "POST /units/:id/webhooks": "staff",
  "GET /units/:id/webhooks/:webhookId": "staff",
  "PUT /units/:id/webhooks/:webhookId": "staff",
  "DELETE /units/:id/webhooks/:webhookId": "staff",
  "POST /units/:id/webhooks/:webhookId/roll-secret": "staff",
  "POST /units/:id/webhooks/:webhookId/ping": "staff",
  "GET /units/:id/webhooks/:webhookId/deliveries": "staff",
  "POST /units/:id/webhooks/:webhookId/deliveries/:deliveryId/resend": "staff",
  // A buyer's personal data: support staff signed in (docs/decisions/0046).
  "GET /personal-data": "staff",
  "POST /personal-data/erasures": "staff",
  "GET /personal-data/erasures": "staff",
  "GET /events/:id/cancellation": "read",
  // Cancelling refunds every paid order: staff only, as a refund is (docs/decisions/0044).
  "POST /events/:id/cancellation": "staff",
  "POST /events/:id/cancellation/retry": "staff",
  "POST /events/:id/cancellation/baskets/:basketId/refunded-by-hand": "staff",
};
/** What a token with the route's scope gets where its case names no member's outcome. */
const TOKEN_OUTCOMES: Record<string, { scoped: Outcome; otherUnit: Outcome }> = {
  // Not a form: refused before the event is read.
  "POST /uploaded-images": { scoped: 400, otherUnit: 400 },
};

describe("permissions on every route", () => {
  let ctx: TestContext;
  const tokens = {} as Record<Exclude<Actor, "anonymous">, string>;
  let unitId: number;
  let memberUserId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    const make = async (name: string, superuser = false) =>
      createUser(ctx.database, { email: `${name}@example.org`, password: PASSWORD, isSuperuser: superuser });
    const owner = await make("owner");
    const member = await make("member");
    await make("outsider");
    await make("root", true);
    unitId = owner.personalUnitId as number;
    memberUserId = member.id;
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.insert(schema.memberships).values({ unitId, userId: member.id, role: "member" }).run());
    });
    for (const [actor, email] of [
      ["owner", "owner"],
      ["member", "member"],
      ["outsider", "outsider"],
      ["superuser", "root"],
    ] as const)
      tokens[actor] = await loginAs(ctx, `${email}@example.org`, PASSWORD);
  });
  afterAll(async () => ctx.close());

  async function freshTarget(): Promise<Target> {
    const base = {
      unitId,
      name: "Target",
      frontendTitle: "Target",
      startDate: "2030-01-01T10:00:00.000Z",
      endDate: "2030-01-01T12:00:00.000Z",
    };
    const event = await createEvent(ctx.database, { ...base, frontendPath: `t-${unique()}` });
    const requested = await createEvent(ctx.database, { ...base, frontendPath: `r-${unique()}` });
    const publicEvent = await createEvent(ctx.database, { ...base, frontendPath: `p-${unique()}` });
    const article = await addArticle(ctx.database, event.id, { title: "Seat", price: 1000, stock: 10 });
    const publicArticle = await addArticle(ctx.database, publicEvent.id, { title: "Seat", price: 1000, stock: 10 });
    // People who never log in: inserted directly, without the cost of hashing a password.
    const person = (prefix: string) =>
      ctx.database.transaction(function* (tx) {
        const email = `${prefix}-${unique()}@example.org`;
        return yield* run(
          tx.insert(schema.users).values({ email, username: email, passwordHash: "-" }).returning().get(),
        );
      });
    const extra = await person("extra");
    const apiToken = await ctx.database.transaction(function* (tx) {
      return yield* run(
        tx
          .insert(schema.apiTokens)
          .values({
            unitId,
            name: "Target",
            tokenHash: `target-${unique()}`,
            prefix: "tkt_target",
            scopes: ["read"],
            createdById: memberUserId,
          })
          .returning()
          .get(),
      );
    });
    const fresh = await person("fresh");
    const ids = await ctx.database.transaction(function* (tx) {
      yield* run(
        tx.update(schema.events).set({ moderationStatus: "requested" }).where(eq(schema.events.id, requested.id)).run(),
      );
      yield* run(
        tx
          .update(schema.events)
          .set({ status: "public", moderationStatus: "validated", isPointOfSaleEnabled: true })
          .where(eq(schema.events.id, publicEvent.id))
          .run(),
      );
      const membership = yield* run(
        tx.insert(schema.memberships).values({ unitId, userId: extra.id, role: "member" }).returning().get(),
      );
      const spare = yield* run(
        tx
          .insert(schema.nodeConfigurations)
          .values({ eventId: event.id, category: "option", title: "Spare" })
          .returning()
          .get(),
      );
      const spareCart = yield* run(
        tx.insert(schema.nodeCartConfigurations).values({ eventId: event.id }).returning().get(),
      );
      const code = yield* run(
        tx
          .insert(schema.promotionCodes)
          .values({ eventId: event.id, name: "Code", value: `V${unique()}` })
          .returning()
          .get(),
      );
      const eventId = event.id;
      const condition = yield* run(tx.insert(schema.conditions).values({ eventId, name: "C" }).returning().get());
      const spareCondition = yield* run(
        tx.insert(schema.conditions).values({ eventId, name: "Spare" }).returning().get(),
      );
      const statement = yield* run(
        tx
          .insert(schema.statements)
          .values({
            eventId,
            conditionId: condition.id,
            leftHandOperand: "promotion_code",
            operator: "=",
            rightHandValue: "X",
          })
          .returning()
          .get(),
      );
      const tag = yield* run(
        tx
          .insert(schema.nodeTags)
          .values({ eventId, name: "T", nodeConfigurationId: article.configuration.id })
          .returning()
          .get(),
      );
      const access = yield* run(tx.insert(schema.nodeAccesses).values({ eventId, label: "A" }).returning().get());
      const availability = yield* run(
        tx.insert(schema.nodeAvailabilities).values({ eventId, name: "Av" }).returning().get(),
      );
      const group = yield* run(tx.insert(schema.nodeExtraInfoGroups).values({ eventId, name: "G" }).returning().get());
      const info = yield* run(
        tx
          .insert(schema.nodeExtraInfos)
          .values({ eventId, groupId: group.id, name: "I", type: "text" })
          .returning()
          .get(),
      );
      const pointOfSale = yield* run(tx.insert(schema.pointsOfSale).values({ eventId, title: "P" }).returning().get());
      const opensAt = "2029-12-01T09:00:00.000Z";
      yield* run(
        tx
          .insert(schema.waitingRooms)
          .values({
            eventId,
            opensAt,
            ratePerMinute: 50,
            admissionMinutes: 10,
            schedule: JSON.stringify([[opensAt, 0, 50]]),
          })
          .run(),
      );
      // A waiting list whose buyers sign in by email, with one entry in line (it asks for no stock: an offer by hand
      // always has room).
      yield* run(tx.insert(schema.eventAccessMethods).values({ eventId, method: "trusted_email" }).run());
      yield* run(tx.insert(schema.waitingLists).values({ eventId, offerMinutes: 60, automatic: false }).run());
      const inLine = `line-${unique()}@example.org`;
      const lineLogin = yield* run(
        tx
          .insert(schema.frontendLogins)
          .values({ eventId, method: "trusted_email", email: inLine, username: inLine, validatedAt: opensAt })
          .returning()
          .get(),
      );
      const entry = yield* run(
        tx
          .insert(schema.waitingListEntries)
          .values({
            eventId,
            loginId: lineLogin.id,
            email: inLine,
            title: "Seat",
            quantity: 1,
            nodeId: article.node.id,
          })
          .returning()
          .get(),
      );
      // A second rule pricing the article, after its own "set": the set can move down past it.
      const fee = yield* run(
        tx.insert(schema.nodePriceRules).values({ eventId, mode: "plus", value: 100, order: 1 }).returning().get(),
      );
      yield* run(
        tx
          .insert(schema.nodeConfigurationPriceRules)
          .values({ nodeConfigurationId: article.configuration.id, targetId: fee.id })
          .run(),
      );
      const more = {
        conditionId: condition.id,
        spareConditionId: spareCondition.id,
        statementId: statement.id,
        tagId: tag.id,
        accessId: access.id,
        availabilityId: availability.id,
        extraInfoGroupId: group.id,
        extraInfoId: info.id,
        pointOfSaleId: pointOfSale.id,
        waitingListEntryId: entry.id,
      };
      const module = yield* run(
        tx.select().from(schema.registrationModules).where(eq(schema.registrationModules.eventId, event.id)).get(),
      );
      const publicModule = yield* run(
        tx
          .select()
          .from(schema.registrationModules)
          .where(eq(schema.registrationModules.eventId, publicEvent.id))
          .get(),
      );
      return {
        ...more,
        spareConfigurationId: spare.id,
        spareCartConfigurationId: spareCart.id,
        membershipId: membership.id,
        promotionCodeId: code.id,
        rootNodeId: module?.rootNodeId as number,
        publicModuleId: publicModule?.id as number,
      };
    });
    const buyer = await createBuyer(ctx, publicEvent.id, ids.publicModuleId);
    await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: publicArticle.node.id },
    });
    // A second basket paid at a point of sale: its invoice waits for staff to mark it paid.
    const onSite = await createBuyer(ctx, publicEvent.id, ids.publicModuleId);
    await ctx.call("POST", "/frontend/selected-nodes", {
      token: onSite.token,
      body: { basket_id: onSite.basketId, node_id: publicArticle.node.id },
    });
    await ctx.call("POST", "/frontend/billing-information", {
      token: onSite.token,
      body: {
        basket_id: onSite.basketId,
        first_name: "A",
        last_name: "B",
        email: "a@example.org",
        address: "x",
        postal_code: "1",
        city: "c",
        country: "CH",
      },
    });
    const checkout = await ctx.call("POST", `/frontend/baskets/${onSite.basketId}/checkout`, {
      token: onSite.token,
      body: { payment_method: "point_of_sale", terms_accepted: true },
    });
    return {
      invoiceId: checkout.body.invoice.id,
      unitId,
      eventId: event.id,
      requestedEventId: requested.id,
      publicEventId: publicEvent.id,
      rootNodeId: ids.rootNodeId,
      nodeId: article.node.id,
      configurationId: article.configuration.id,
      cartConfigurationId: article.node.cartConfigurationId,
      spareConfigurationId: ids.spareConfigurationId,
      spareCartConfigurationId: ids.spareCartConfigurationId,
      limitId: article.limit.id,
      priceRuleId: article.priceRule.id,
      promotionCodeId: ids.promotionCodeId,
      conditionId: ids.conditionId,
      spareConditionId: ids.spareConditionId,
      statementId: ids.statementId,
      tagId: ids.tagId,
      accessId: ids.accessId,
      availabilityId: ids.availabilityId,
      extraInfoGroupId: ids.extraInfoGroupId,
      extraInfoId: ids.extraInfoId,
      pointOfSaleId: ids.pointOfSaleId,
      waitingListEntryId: ids.waitingListEntryId,
      basketId: buyer.basketId,
      membershipId: ids.membershipId,
      memberUserId,
      freshEmail: fresh.email,
      apiTokenId: apiToken.id,
      ...(await ctx.database.transaction(function* (tx) {
        const endpoint = yield* run(
          tx
            .insert(schema.webhookEndpoints)
            .values({
              unitId,
              url: "https://hooks.example.org/in",
              events: ["order.paid"],
              secretEncrypted: encryptSecret(ctx.config.secretKey, "whsec_dGVzdA=="),
            })
            .returning()
            .get(),
        );
        const delivery = yield* run(
          tx
            .insert(schema.webhookDeliveries)
            .values({ endpointId: endpoint.id, messageId: `msg_${unique()}`, eventType: "ping", payload: "{}" })
            .returning()
            .get(),
        );
        return { webhookId: endpoint.id, webhookDeliveryId: delivery.id };
      })),
    };
  }

  it("has an expectation for every route the router knows, and none for a route that is gone", () => {
    const routes = new Set(
      ctx.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/^\/api\/v1/, "")}`),
    );
    expect(
      [...routes].filter((r) => !(r in CASES)),
      "routes without a permission expectation",
    ).toEqual([]);
    expect(
      Object.keys(CASES).filter((r) => !routes.has(r)),
      "expectations for routes that do not exist",
    ).toEqual([]);
  });

  for (const [route, spec] of Object.entries(CASES)) {
    const method = route.split(" ")[0] as string;
    for (const actor of ACTORS) {
      const outcome = spec.expect[actor];
      if (outcome === undefined) continue;
      it(`${route} as ${actor} → ${outcome}`, async () => {
        const target = await freshTarget();
        const response = await ctx.call(method, spec.path(target), {
          token: actor === "anonymous" ? undefined : tokens[actor],
          body: spec.body?.(target),
          headers: { "x-real-ip": `10.0.${counter % 250}.${actor.length}` },
        });
        if (outcome === "hidden") {
          expect(response.status).toBe(200);
          const ids = (response.body as { id: number }[]).map((row) => row.id);
          expect(ids).not.toContain(spec.listed?.(target));
        } else {
          expect(response.status, JSON.stringify(response.body)).toBe(outcome);
          if (spec.renewsSession && actor !== "anonymous") tokens[actor] = response.body.access_token;
          if (outcome === 200 && spec.listed && method === "GET")
            expect((response.body as { id: number }[]).map((r) => r.id)).toContain(spec.listed(target));
        }
      });
    }
  }
  // API tokens: a token of the target's unit with every scope but the route's (403), with the route's alone (a
  // member's outcome), with all of them on a staff-only route (403); a token of another unit (an outsider's outcome);
  // a revoked one (401). Refused calls share one target; a call that goes through gets a fresh one.
  describe("as API tokens", () => {
    const apiTokens = {} as Record<string, string>;
    let tokenCalls = 0;
    let shared: Target;
    const newToken = async (owner: string, unit: number, scopes: readonly string[]) => {
      const created = await ctx.call("POST", `/units/${unit}/api-tokens`, {
        token: owner,
        body: { name: "Walk", scopes },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body as { id: number; token: string };
    };

    beforeAll(async () => {
      for (const scope of API_TOKEN_SCOPES) {
        apiTokens[`only ${scope}`] = (await newToken(tokens.owner, unitId, [scope])).token;
        const others = API_TOKEN_SCOPES.filter((other) => other !== scope);
        apiTokens[`all but ${scope}`] = (await newToken(tokens.owner, unitId, others)).token;
      }
      apiTokens.all = (await newToken(tokens.owner, unitId, API_TOKEN_SCOPES)).token;
      const outsiderUnit = (await ctx.call("GET", "/users/me", { token: tokens.outsider })).body.personal_unit_id;
      apiTokens.otherUnit = (await newToken(tokens.outsider, outsiderUnit, API_TOKEN_SCOPES)).token;
      const revoked = await newToken(tokens.owner, unitId, API_TOKEN_SCOPES);
      await ctx.call("DELETE", `/units/${unitId}/api-tokens/${revoked.id}`, { token: tokens.owner });
      apiTokens.revoked = revoked.token;
      shared = await freshTarget();
    });

    it("has a token expectation for every route the router knows, and none for a route that is gone", () => {
      const routes = Object.keys(CASES);
      expect(
        routes.filter((r) => !(r in TOKEN_SCOPES)),
        "routes without a token expectation",
      ).toEqual([]);
      expect(
        Object.keys(TOKEN_SCOPES).filter((r) => !(r in CASES)),
        "token expectations for unknown routes",
      ).toEqual([]);
    });

    for (const [route, spec] of Object.entries(CASES)) {
      const method = route.split(" ")[0] as string;
      const rule = TOKEN_SCOPES[route];
      if (!rule) continue;
      const calls: { who: string; outcome: Outcome | undefined; fresh?: true }[] =
        rule === "anonymous"
          ? ["all", "otherUnit", "revoked"].map((who) => ({ who, outcome: spec.expect.anonymous }))
          : rule === "staff"
            ? [
                { who: "all", outcome: 403 },
                { who: "otherUnit", outcome: 403 },
                { who: "revoked", outcome: 401 },
              ]
            : [
                { who: `all but ${rule}`, outcome: 403 },
                { who: `only ${rule}`, outcome: spec.expect.member ?? TOKEN_OUTCOMES[route]?.scoped, fresh: true },
                { who: "otherUnit", outcome: spec.expect.outsider ?? TOKEN_OUTCOMES[route]?.otherUnit },
                { who: "revoked", outcome: 401 },
              ];
      for (const { who, outcome, fresh } of calls) {
        if (outcome === undefined) continue;
        it(`${route} (${rule}) as a token with ${who} → ${outcome}`, async () => {
          const target = fresh ? await freshTarget() : shared;
          // A list is read newest first: the target's rows are on its first page however many earlier cases made.
          const path = spec.path(target);
          const newestFirst = spec.listed
            ? `${path.includes("?") ? "&" : "?"}sort=${encodeURIComponent('["id","DESC"]')}`
            : "";
          const response = await ctx.call(method, `${path}${newestFirst}`, {
            token: apiTokens[who],
            body: spec.body?.(target),
            headers: { "x-real-ip": `10.1.${tokenCalls++ % 250}.${who.length}` },
          });
          if (outcome === "hidden") {
            expect(response.status).toBe(200);
            expect((response.body as { id: number }[]).map((row) => row.id)).not.toContain(spec.listed?.(target));
            return;
          }
          expect(response.status, JSON.stringify(response.body)).toBe(outcome);
          if (outcome === 403 && rule !== "anonymous") expect(response.body.errors[0]).toMatch(/API token/);
          if (outcome === 200 && spec.listed && method === "GET")
            expect((response.body as { id: number }[]).map((r) => r.id)).toContain(spec.listed(target));
        });
      }
    }
  });
});
