// A stand-in API for the waiting room's route tests (the room page and the buy page's guard): an event with or
// without a room, the login's place as the API would answer it, and every call recorded.
import { loginKey, sessionStorage } from "./session.server";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

export const DEVICE_SET_COOKIE = "device_ab12=v1; Path=/; HttpOnly; SameSite=Lax";

/** A place on the wire (snake_case), `waiting` at position 2 unless told. */
export const wirePlace = (fields: Record<string, unknown> = {}) => ({
  event_id: 1,
  state: "waiting",
  opens_at: "2026-11-28T10:00:00.000Z",
  position: 2,
  ahead: 1,
  estimated_wait_seconds: 150,
  admitted_until: null,
  refresh_seconds: 20,
  ...fields,
});

interface RoomApiOptions {
  hasWaitingRoom?: boolean;
  /** What GET answers: the login's place, or null for none yet (404). */
  place?: Record<string, unknown> | null;
  /** What POST answers: a place, or a refusal. */
  joined?: Record<string, unknown> | { status: number; errors: string[] };
  /** What adding an article answers, when not 200. */
  addRefusal?: { status: number; errors: string[] };
}

export function roomApi({ hasWaitingRoom = true, place = null, joined = wirePlace(), addRefusal }: RoomApiOptions) {
  const calls: string[] = [];
  const sentCookies: (string | null)[] = [];
  const apiFetch = async (path: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    calls.push(`${method} ${path.split("?")[0]}`);
    if (path.startsWith("/events/public-infos"))
      return json(200, {
        id: 1,
        registration_module_id: 4,
        frontend_path: "demo",
        frontend_title: "Demo",
        access_methods: ["anonymous"],
        are_registrations_allowed: true,
        is_basket_item_modification_allowed: true,
        max_items_per_basket: 10,
        has_waiting_room: hasWaitingRoom,
      });
    if (path.startsWith("/frontend/waiting-room") && method === "GET")
      return place ? json(200, place) : json(404, { errors: ["You have no place in this queue"] });
    if (path === "/frontend/waiting-room" && method === "POST") {
      sentCookies.push(new Headers(init?.headers).get("Cookie"));
      if ("errors" in joined) return json(joined.status as number, { errors: joined.errors });
      return json(200, joined, { "Set-Cookie": DEVICE_SET_COOKIE });
    }
    if (path.startsWith("/frontend/baskets?")) return json(200, []);
    if (path.startsWith("/frontend/events/1/tree")) return json(200, { root: null });
    if (path === "/frontend/selected-nodes" && addRefusal)
      return json(addRefusal.status, { errors: addRefusal.errors });
    if (path === "/frontend/selected-nodes") return json(200, {});
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch, calls, sentCookies };
}

interface VisitOptions {
  method?: string;
  form?: Record<string, string>;
  signedIn?: boolean;
  /** A preview's visit: its staff signed in to event 1's testing login. */
  testing?: boolean;
}

/** A request to `pathname` from a browser signed in to event 1 (unless `signedIn` is false), with other cookies. */
export async function visit(
  pathname: string,
  { method = "GET", form, signedIn = true, testing = false }: VisitOptions = {},
) {
  const session = await sessionStorage.getSession();
  if (signedIn) session.set("logins", { [loginKey(1, testing)]: { accessToken: "a1", refreshToken: "r1" } });
  if (testing) session.set("previews", { demo: 1 });
  const sessionCookie = (await sessionStorage.commitSession(session)).split(";")[0];
  return new Request(`http://localhost${pathname}`, {
    method,
    headers: {
      Cookie: `${sessionCookie}; device_ab12=v0; lng=fr`,
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

/** A loader's or action's answer, thrown or returned: its status, redirect target, data and headers. */
export async function answerOf(running: Promise<unknown>) {
  const answer = await running.catch((thrown: unknown) => thrown);
  if (answer instanceof Response)
    return { status: answer.status, location: answer.headers.get("Location"), data: null, headers: answer.headers };
  const { data, init } = answer as { data: Record<string, unknown>; init?: ResponseInit | null };
  return { status: init?.status ?? 200, location: null, data, headers: new Headers(init?.headers) };
}
