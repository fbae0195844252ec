// A waiting room as the API sends it (snake_case), for the screen's tests.
export const wireRoom = (overrides: Record<string, unknown> = {}) => ({
  id: 3,
  event_id: 7,
  opens_at: "2026-12-01T09:00:00.000Z",
  rate_per_minute: 120,
  admission_minutes: 10,
  status: "running",
  is_open: true,
  admitted_positions: 360,
  counts: { places: 1500, waiting: 1140, admitted: 80, holding: 95, bought: 170, lapsed: 15 },
  updated_at: "2026-12-01T09:03:00.000Z",
  ...overrides,
});
