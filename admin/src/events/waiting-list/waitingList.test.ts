import { DEFAULT_WAITING_LIST_OFFER_MINUTES } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { canOffer, canRemove, formValuesOf, isOfferTimeValid, settingsOfForm } from "./waitingList.ts";

describe("formValuesOf and settingsOfForm", () => {
  it("starts a new list accepting names, with automatic offers of a day and no partial offers", () => {
    expect(formValuesOf(null)).toEqual({
      accepting: true,
      mode: "automatic",
      offerHours: DEFAULT_WAITING_LIST_OFFER_MINUTES / 60,
      offerMinutes: 0,
      partialOffers: false,
    });
  });

  it("splits the offer time into hours and minutes, and sends it back in minutes", () => {
    const settings = { accepting: false, automatic: false, offerMinutes: 150, partialOffers: true };
    const values = formValuesOf(settings);
    expect(values).toEqual({ accepting: false, mode: "manual", offerHours: 2, offerMinutes: 30, partialOffers: true });
    expect(settingsOfForm(values)).toEqual(settings);
  });

  it("counts an emptied field as zero", () => {
    const values = { ...formValuesOf(null), offerHours: null as unknown as number, offerMinutes: 45 };
    expect(settingsOfForm(values).offerMinutes).toBe(45);
  });
});

describe("isOfferTimeValid", () => {
  it("takes 15 minutes to 14 days, nothing shorter or longer", () => {
    expect(isOfferTimeValid({ offerHours: 0, offerMinutes: 14 })).toBe(false);
    expect(isOfferTimeValid({ offerHours: 0, offerMinutes: 15 })).toBe(true);
    expect(isOfferTimeValid({ offerHours: 336, offerMinutes: 0 })).toBe(true);
    expect(isOfferTimeValid({ offerHours: 336, offerMinutes: 1 })).toBe(false);
  });
});

describe("canOffer and canRemove", () => {
  it("offers by hand only an entry still waiting; removes one waiting or holding an offer not opened yet", () => {
    expect(canOffer({ state: "waiting" })).toBe(true);
    expect(canRemove({ state: "waiting", basketId: null })).toBe(true);
    expect(canOffer({ state: "offered" })).toBe(false);
    expect(canRemove({ state: "offered", basketId: null })).toBe(true);
    expect(canRemove({ state: "offered", basketId: 12 })).toBe(false);
    for (const state of ["bought", "expired", "left", "removed"] as const) {
      expect(canOffer({ state })).toBe(false);
      expect(canRemove({ state, basketId: null })).toBe(false);
    }
  });
});
