// A stand-in API for the waiting list's route tests (issue 31): an event whose list takes names (or not), the buyer's
// login (a proved email or a guest), their entries, an offer read with its mailed code, and every call recorded with
// its body. Requests and answers are read with waiting-room.fixtures.ts's `visit` and `answerOf`.

import type { AccessMethod } from "@ticketing/shared/constants";
import { provesEmail } from "@ticketing/shared/ticket-office";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** A sold-out article of event 1 and another on sale, as the buyer's tree gives them (snake_case). */
const article = (id: number, title: string, display: string) => ({
  id,
  parent_id: 2,
  category: "article",
  title,
  stock: { display, remaining: display === "out_of_stock" ? 0 : 10, maximum: 10 },
  children: [],
});
export const SOLD_OUT_ID = 5;
export const ON_SALE_ID = 6;

/** An entry of the buyer's on the wire, waiting at position 3 unless told. */
export const wireEntry = (fields: Record<string, unknown> = {}) => ({
  id: 40,
  event_id: 1,
  node_id: SOLD_OUT_ID,
  title: "Concert",
  quantity: 2,
  state: "waiting",
  position: 3,
  offered_quantity: null,
  offer_expires_at: null,
  basket_id: null,
  created_at: "2026-11-28T10:00:00.000Z",
  ...fields,
});

/** The offer of entry 40 as its mail's link reads it, open until 2099 unless told. */
export const wireOffer = (fields: Record<string, unknown> = {}) => ({
  id: 40,
  event_id: 1,
  title: "Concert",
  quantity: 2,
  offered_quantity: 2,
  state: "offered",
  offer_expires_at: "2099-01-01T10:00:00.000Z",
  basket_id: null,
  email: "ada@example.org",
  ...fields,
});

export const GOOD_CODE = "c0ffee".repeat(6);

/** What opening an offer answers: the entry's login, signed in, and its basket. */
export const OPENED = {
  access_token: "offer-access",
  refresh_token: "offer-refresh",
  basket_id: 70,
  login: {
    id: 9,
    event_id: 1,
    testing: false,
    method: "trusted_email",
    email: "ada@example.org",
    username: "ada@example.org",
    user_id: null,
    validation_token_hash: null,
    validation_expires_at: null,
    validated_at: "2026-11-28T10:00:00.000Z",
    created_at: "2026-11-28T10:00:00.000Z",
  },
};

type Refusal = { status: number; errors: string[] };

interface ListApiOptions {
  /** PublicInfos' waitingList: taking names unless told; null for an event without a list. */
  waitingList?: { accepting: boolean } | null;
  /** The login's method, email and whether its link was followed: a proved email unless told. */
  login?: { method: AccessMethod; email: string | null; validatedAt?: string | null };
  entries?: Record<string, unknown>[];
  joined?: Record<string, unknown> | Refusal;
  left?: Refusal;
  /** What reading the offer answers; a refusal for a code that is not the good one. */
  offer?: Record<string, unknown> | Refusal;
  opened?: Record<string, unknown> | Refusal;
  declined?: Refusal;
  maxTicketsPerBuyer?: number | null;
}

const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" && value !== null && "errors" in value && "status" in value;

export function listApi({
  waitingList = { accepting: true },
  login = { method: "trusted_email", email: "ada@example.org", validatedAt: "2026-11-01T10:00:00.000Z" },
  entries = [wireEntry()],
  joined = wireEntry({ id: 41 }),
  left,
  offer = wireOffer(),
  opened = OPENED,
  declined,
  maxTicketsPerBuyer = 4,
}: ListApiOptions = {}) {
  const calls: string[] = [];
  const bodies: Record<string, unknown> = {};
  const apiFetch = async (path: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const route = `${method} ${path.split("?")[0]}`;
    calls.push(route);
    if (typeof init?.body === "string") bodies[route] = JSON.parse(init.body);
    const answer = (value: unknown) => (isRefusal(value) ? json(value.status, { errors: value.errors }) : null);
    if (path.startsWith("/events/public-infos"))
      return json(200, {
        id: 1,
        registration_module_id: 4,
        frontend_path: "demo",
        frontend_title: "Demo",
        access_methods: ["anonymous", "trusted_email"],
        are_registrations_allowed: true,
        is_basket_item_modification_allowed: true,
        max_items_per_basket: 10,
        max_tickets_per_buyer: maxTicketsPerBuyer,
        has_waiting_room: false,
        waiting_list: waitingList,
      });
    if (route === "GET /frontend-logins")
      return json(200, [
        {
          id: 3,
          event: 1,
          event_id: 1,
          testing: false,
          username: "x",
          method: login.method,
          email: login.email,
          email_proved: provesEmail({ validatedAt: null, ...login }),
        },
      ]);
    if (route === "GET /frontend/events/1/tree")
      return json(200, {
        root: {
          id: 2,
          category: "root",
          title: "",
          children: [article(SOLD_OUT_ID, "Concert", "out_of_stock"), article(ON_SALE_ID, "Workshop", "available")],
        },
      });
    if (route === "GET /frontend/waiting-list") return json(200, entries);
    if (route === "POST /frontend/waiting-list") return answer(joined) ?? json(201, joined);
    if (method === "DELETE" && path.startsWith("/frontend/waiting-list/")) return answer(left) ?? json(200, {});
    if (route === "GET /frontend/waiting-list/offers/40") {
      if (!path.includes(`code=${GOOD_CODE}`)) return json(404, { errors: ["This offer link is not valid"] });
      return answer(offer) ?? json(200, offer);
    }
    if (route === "POST /frontend/waiting-list/offers/40/open") return answer(opened) ?? json(200, opened);
    if (route === "POST /frontend/waiting-list/offers/40/decline") return answer(declined) ?? json(200, {});
    if (route === "POST /auth/trusted-email-login") return json(201, { detail: "sent" });
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch, calls, bodies };
}
