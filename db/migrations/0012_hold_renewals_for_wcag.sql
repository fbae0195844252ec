-- WCAG 2.2.1 (Timing Adjustable): a buyer may extend a hold at least ten times unless the event's limit is essential
-- (docs/decisions/0042). Events still at 0009's default of 3 take the new default of 10: the back office showed 3
-- already filled in, so a 3 was not a choice one can tell from a default; an organiser who wants fewer sets it again.
-- The column's SQL default stays 0009's 3: SQLite changes a default only by rebuilding the table, and dropping
-- `events` inside the migrator's transaction (foreign keys on) would cascade to the 23 tables that refer to it ON DELETE CASCADE.
-- Drizzle writes the schema's default (DEFAULT_MAX_HOLD_RENEWALS) into every insert, so the SQL one is never used;
-- the snapshot says 10 so that a later `drizzle-kit generate` does not propose that rebuild.
UPDATE `events` SET `max_hold_renewals` = 10 WHERE `max_hold_renewals` = 3;
