import { describe, expect, it } from "vitest";
import { loader as invoicePdf } from "../routes/tickets/$path/invoices/$invoiceId/pdf/route";
import { downloadableInvoices } from "./invoices";
import { loginKey, sessionStorage } from "./session.server";

describe("downloadableInvoices", () => {
  it("offers the paid invoice and the credit notes, not a cancelled or unpaid attempt", () => {
    const invoice = (id: number, status: "paid" | "pending" | "cancelled", isRefund = false) => ({
      id,
      displayNumber: String(id),
      status,
      isRefund,
    });
    expect(
      downloadableInvoices([
        invoice(1, "cancelled"),
        invoice(2, "pending"),
        invoice(3, "paid"),
        invoice(4, "paid", true),
        invoice(5, "pending", true),
        invoice(6, "cancelled", true),
      ]).map((row) => row.id),
    ).toEqual([3, 4, 5]);
  });
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 1, frontend_path: "demo", access_methods: ["anonymous"] };

/** The API as the invoice route sees it: invoice 7 is the visitor's, any other is not. */
function fakeApi() {
  const calls: { path: string; authorization: string | null }[] = [];
  const apiFetch = async (path: string, init: RequestInit = {}) => {
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    calls.push({ path, authorization: new Headers(init.headers).get("Authorization") });
    if (path === "/frontend/invoices/7/pdf")
      return new Response("%PDF-1.3 …", {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": 'attachment; filename="invoice-unit-3.pdf"',
        },
      });
    return json(404, { errors: ["Resource not found"] });
  };
  return { context: { apiFetch }, calls };
}

async function args(url: string, invoiceId: string, context: object, isLoggedIn = true) {
  const session = await sessionStorage.getSession();
  if (isLoggedIn) session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
  const request = new Request(url, { headers: { Cookie: await sessionStorage.commitSession(session) } });
  return { request, params: { path: "demo", invoiceId }, context } as never;
}

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as { init?: ResponseInit; status?: number; headers?: Headers },
  );

describe("invoice PDF download", () => {
  it("streams the visitor's invoice from the API with their login, uncached, as a download", async () => {
    const { context, calls } = fakeApi();
    const response = await invoicePdf(await args("http://localhost/tickets/demo/invoices/7/pdf", "7", context));
    expect(calls).toEqual([{ path: "/frontend/invoices/7/pdf", authorization: "Bearer a1" }]);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="invoice-unit-3.pdf"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toBe("%PDF-1.3 …");
  });

  it("answers 404 for another buyer's invoice or a malformed id, and asks a visitor to log in", async () => {
    const { context, calls } = fakeApi();
    const stranger = await thrown(invoicePdf(await args("http://localhost/tickets/demo/invoices/9/pdf", "9", context)));
    expect(stranger?.init?.status).toBe(404);
    const malformed = await thrown(
      invoicePdf(await args("http://localhost/tickets/demo/invoices/x/pdf", "x", context)),
    );
    expect(malformed?.init?.status).toBe(404);
    const signedOut = await thrown(
      invoicePdf(await args("http://localhost/tickets/demo/invoices/7/pdf", "7", context, false)),
    );
    expect(signedOut?.status).toBe(302);
    expect(signedOut?.headers?.get("Location")).toBe(
      "/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2Finvoices%2F7%2Fpdf",
    );
    expect(calls.map((call) => call.path)).toEqual(["/frontend/invoices/9/pdf"]);
  });
});
