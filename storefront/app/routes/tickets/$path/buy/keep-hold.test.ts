// "Keep my tickets for N more minutes" on the buy page (docs/decisions/0042): the buyer's own open basket is renewed
// with their token and the page comes back; a refusal (409) is shown in the hold's box, not as an error page.
import { describe, expect, it } from "vitest";
import { answerOf, visit } from "#app/lib/waiting-room.fixtures.ts";
import { action } from "#app/routes/tickets/$path/buy/route.tsx";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** An event without a waiting room whose buyer has basket 7 open; hold-again answers `renewal`. */
function officeApi(renewal: { status: number; errors?: string[] }) {
  const calls: string[] = [];
  const apiFetch = async (path: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    calls.push(`${method} ${path.split("?")[0]} ${new Headers(init?.headers).get("Authorization")}`);
    if (path.startsWith("/events/public-infos"))
      return json(200, {
        id: 1,
        frontend_path: "demo",
        frontend_title: "Demo",
        access_methods: ["anonymous"],
        are_registrations_allowed: true,
        is_basket_item_modification_allowed: true,
        max_items_per_basket: 10,
        reservation_minutes: 30,
        has_waiting_room: false,
      });
    if (path.startsWith("/frontend/baskets?")) return json(200, [{ id: 7, status: "new" }]);
    if (path === "/frontend/baskets/7") return json(200, { id: 7, status: "new", items: [], hold_renewals_left: 1 });
    if (path === "/frontend/baskets/7/hold-again")
      return json(renewal.status, renewal.errors ? { errors: renewal.errors } : { basket: {}, restored: [] });
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch, calls };
}

async function keep(context: ReturnType<typeof officeApi>) {
  const request = await visit("/tickets/demo/buy", { method: "POST", form: { intent: "keepHold" } });
  return answerOf(action({ request, params: { path: "demo" }, context } as never));
}

describe("keeping one's tickets longer on the buy page", () => {
  it("renews the buyer's open basket with their token and comes back to the page", async () => {
    const api = officeApi({ status: 200 });
    expect(await keep(api)).toMatchObject({ status: 302, location: "/tickets/demo/buy" });
    expect(api.calls).toContain("POST /frontend/baskets/7/hold-again Bearer a1");
  });

  it("shows the API's refusal in the hold's box with its status", async () => {
    const errors = ["You have already kept your tickets longer 10 times: that is the most this event allows"];
    const answer = await keep(officeApi({ status: 409, errors }));
    expect(answer).toMatchObject({ status: 409, data: { target: "hold", errors } });
  });
});
