// The completion page's downloads: the order's paid invoice and its credit notes, fetched with the visitor's login.
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { loader } from "#app/routes/tickets/$path/completion/route.tsx";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 4, frontend_path: "demo", access_methods: ["anonymous"] };
const invoice = (id: number, status: string, amount: number) => ({
  id,
  number: id,
  display_number: String(id),
  is_testing: false,
  basket_id: 3,
  basket_reference: "K7Q2",
  event_id: 1,
  amount,
  is_refund: amount < 0,
  status,
  related_invoice_id: amount < 0 ? 2 : null,
  due_date: null,
  created_at: "2026-11-24T10:00:00.000Z",
  resolved_at: null,
});

function fakeApi() {
  const calls: string[] = [];
  const basket = {
    id: 3,
    event_id: 1,
    status: "validated",
    testing: false,
    total: 2500,
    items: [],
    payment_intents: [],
  };
  const apiFetch = async (path: string) => {
    calls.push(path);
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    if (path.startsWith("/frontend/baskets?")) return json(200, [{ id: 3, status: "validated" }]);
    if (path === "/frontend/baskets/3") return json(200, basket);
    if (path === "/frontend/events/1/confirmation-page") return json(200, { text: null, redirect_url: null });
    if (path === "/frontend/invoices?basket_id=3")
      return json(200, [invoice(1, "cancelled", 2500), invoice(2, "paid", 2500), invoice(5, "paid", -1000)]);
    return json(404, { errors: ["Resource not found"] });
  };
  return { context: { apiFetch }, calls };
}

describe("completion page", () => {
  it("offers the paid invoice and its credit notes, not the cancelled payment attempt's invoice", async () => {
    const { context, calls } = fakeApi();
    const session = await sessionStorage.getSession();
    session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
    const request = new Request("http://localhost/tickets/demo/completion", {
      headers: { Cookie: await sessionStorage.commitSession(session) },
    });
    const result = (await loader({ request, params: { path: "demo" }, context } as never)) as unknown as {
      data: { invoices: { id: number; isRefund: boolean; displayNumber: string }[] };
    };
    expect(calls).toContain("/frontend/invoices?basket_id=3");
    expect(result.data.invoices.map(({ id, isRefund, displayNumber }) => ({ id, isRefund, displayNumber }))).toEqual([
      { id: 2, isRefund: false, displayNumber: "2" },
      { id: 5, isRefund: true, displayNumber: "5" },
    ]);
  });
});
