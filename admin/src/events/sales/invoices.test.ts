// The invoice pages' calls: the event's list (ra-data-simple-rest over GET /invoices) and the PDF download.
import { HttpError } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, setupProviders } from "../../test-support.ts";
import { invoicePath, invoiceStatusChoices } from "./invoiceStatus.ts";

const tokens = { accessToken: "access-1", refreshToken: "refresh-1" };
const pdfResponse = () =>
  new Response("%PDF-1.3 …", {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": 'attachment; filename="invoice-agepoly-12.pdf"',
    },
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("invoice list", () => {
  it("asks for the event's invoices by number, newest first, and reads them in camelCase", async () => {
    const calls = mockFetch(() =>
      jsonResponse(
        [{ id: 4, number: 12, display_number: "12", basket_id: 9, basket_reference: "K7Q2", status: "paid" }],
        200,
        { "Content-Range": "invoices 0-0/1" },
      ),
    );
    const { dataProvider } = setupProviders(tokens);
    const page = await dataProvider.getList("invoices", {
      filter: { eventId: 3, status: "paid" },
      sort: { field: "number", order: "DESC" },
      pagination: { page: 1, perPage: 25 },
    });
    expect(calls[0]?.path).toBe("/invoices");
    expect(JSON.parse(calls[0]?.query.get("filter") ?? "")).toEqual({ event_id: 3, status: "paid" });
    expect(calls[0]?.query.get("sort")).toBe('["number","DESC"]');
    expect(page.data[0]).toMatchObject({ id: 4, displayNumber: "12", basketId: 9, basketReference: "K7Q2" });
    expect(page.total).toBe(1);
  });

  it("opens an invoice under its basket and event (docs/specification.md §2.2), and offers the three statuses", () => {
    expect(invoicePath(3, { id: 4, basketId: 9 })).toBe("/events/3/baskets/9/invoices/4");
    expect(invoiceStatusChoices.map((choice) => choice.name)).toEqual([
      "admin.invoiceStatus.paid",
      "admin.invoiceStatus.pending",
      "admin.invoiceStatus.cancelled",
    ]);
  });
});

describe("invoice PDF download", () => {
  it("fetches the PDF in the language asked with the session's token, and keeps the API's file name", async () => {
    const calls = mockFetch(() => pdfResponse());
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.downloadInvoicePdf(4, "en");
    expect(calls[0]?.path).toBe("/invoices/4/pdf");
    expect(calls[0]?.query.get("language")).toBe("en");
    expect(calls[0]?.headers.get("Authorization")).toBe("Bearer access-1");
    expect(data.fileName).toBe("invoice-agepoly-12.pdf");
    expect(await data.blob.text()).toBe("%PDF-1.3 …");
  });

  it("renews an expired token once and retries", async () => {
    const calls = mockFetch((call) => {
      if (call.path === "/auth/token/refresh")
        return jsonResponse({ access_token: "access-2", refresh_token: "refresh-2" });
      return call.headers.get("Authorization") === "Bearer access-2"
        ? pdfResponse()
        : jsonResponse({ errors: ["Authentication required"] }, 401);
    });
    const { dataProvider } = setupProviders(tokens);
    const { data } = await dataProvider.downloadInvoicePdf(4, "fr");
    expect(calls.map((call) => call.path)).toEqual(["/invoices/4/pdf", "/auth/token/refresh", "/invoices/4/pdf"]);
    expect(data.fileName).toBe("invoice-agepoly-12.pdf");
  });

  it("rejects with the API's message for an invoice the user may not see", async () => {
    mockFetch(() => jsonResponse({ errors: ["Resource not found"] }, 404));
    const { dataProvider } = setupProviders(tokens);
    const error = await dataProvider.downloadInvoicePdf(99, "fr").then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: "Resource not found" });
  });
});
