// A waiting list and its entries as the API sends them (snake_case), for the screen's tests.
export const wireList = (overrides: Record<string, unknown> = {}) => ({
  event_id: 7,
  accepting: true,
  automatic: false,
  offer_minutes: 90,
  partial_offers: false,
  counts: { waiting: 1204, offered: 3, bought: 12, expired: 2, left: 1, removed: 0 },
  updated_at: "2026-12-01T09:03:00.000Z",
  ...overrides,
});

export const wireEntry = (overrides: Record<string, unknown> = {}) => ({
  id: 41,
  event_id: 7,
  position: 1,
  email: "ada@example.org",
  language: "en",
  testing: false,
  node_id: 5,
  title: "Front row",
  quantity: 2,
  state: "waiting",
  offered_quantity: null,
  offered_at: null,
  offer_expires_at: null,
  basket_id: null,
  created_at: "2026-12-01T08:15:00.000Z",
  updated_at: null,
  ...overrides,
});
