// The buy page's return after a hold ran out: the articles are held again, or — when the API refuses (the basket's
// hold renewals used up, a waiting room's turn lapsed) — the buyer is told why, and the page still shows.
import { describe, expect, it } from "vitest";
import { type ApiClient, ApiError } from "./api.server";
import { keepHold, loadOpenBasket } from "./baskets.server";
import type { TicketOffice } from "./ticket-office.server";

const office = { event: { id: 1 }, testing: false, areBasketActionsAllowed: true } as unknown as TicketOffice;
const expired = { id: 11, nodeId: 5, title: "Day pass", price: 4500, options: [] };
const basketDetail = { id: 7, status: "new", items: [], paymentIntents: [], expiredItems: [expired] };

/** An API whose hold-again answers `holdAgain` (a result, or an error to throw). */
function api(holdAgain: () => unknown): ApiClient {
  return {
    get: async (path: string) => (path === "/frontend/baskets" ? [{ id: 7, status: "new" }] : basketDetail),
    post: async () => holdAgain(),
  } as unknown as ApiClient;
}

describe("a basket whose hold ran out, on the buy page", () => {
  it("is held again, saying what came back", async () => {
    const held = { ...basketDetail, expiredItems: [], items: [expired] };
    const { basket, holdNotice } = await loadOpenBasket(
      office,
      api(() => ({ basket: held, restored: [expired], unavailable: [] })),
      { holdAgain: true },
    );
    expect(holdNotice).toEqual({ restored: [expired], unavailable: [], refusal: [] });
    expect(basket?.items).toEqual([expired]);
  });

  it("says why when the API refuses to hold it again, and lists what is no longer held", async () => {
    const errors = ["You have already kept your tickets longer 3 times: that is the most this event allows"];
    const { basket, holdNotice } = await loadOpenBasket(
      office,
      api(() => {
        throw new ApiError(409, errors);
      }),
      { holdAgain: true },
    );
    expect(holdNotice).toEqual({ restored: [], unavailable: [expired], refusal: errors });
    expect(basket?.expiredItems).toEqual([]);
  });

  it("lets any other failure through", async () => {
    const failing = api(() => {
      throw new ApiError(400, ["bad"]);
    });
    await expect(loadOpenBasket(office, failing, { holdAgain: true })).rejects.toThrow(ApiError);
  });
});

describe("keeping one's tickets longer", () => {
  it("renews the basket's hold through hold-again, and answers the API's words when it refuses with 409", async () => {
    const asked: string[] = [];
    const renewing = {
      post: async (path: string) => {
        asked.push(path);
        return { basket: basketDetail, restored: [], unavailable: [] };
      },
    } as unknown as ApiClient;
    expect(await keepHold(renewing, 7)).toBeNull();
    expect(asked).toEqual(["/frontend/baskets/7/hold-again"]);

    const used = new ApiError(409, ["You have already kept your tickets longer 10 times"]);
    expect(
      await keepHold(
        api(() => Promise.reject(used)),
        7,
      ),
    ).toBe(used);
    // Not a refusal of this request (a 404 for another's basket, a failure): the page's error boundary says so.
    await expect(
      keepHold(
        api(() => Promise.reject(new ApiError(404, ["Not found"]))),
        7,
      ),
    ).rejects.toThrow(ApiError);
  });
});
