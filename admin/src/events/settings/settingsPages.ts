// docs/specification.md §2.2 `/events/:id/settings`: four pages, each its own form of the event's fields it owns.
export const SETTINGS_PAGES = ["status", "dates", "auth", "payment"] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number];

/** The i18n key of a page's name. */
export const settingsPageLabel = (page: SettingsPage) => `admin.settings.pages.${page}`;

/**
 * An input-level validator of the later end of a window (registrations, payments, the event itself): not before
 * `startSource`'s moment when both are set (an open end or start is no window to check). Input-level because
 * react-admin ignores input validators once a form has a `validate` prop.
 */
export const endNotBefore =
  (startSource: string) =>
  (end: unknown, values: Record<string, unknown>): string | undefined => {
    const start = values[startSource];
    if (typeof start !== "string" || typeof end !== "string" || !start || !end) return undefined;
    return new Date(end) < new Date(start) ? "admin.validation.endBeforeStart" : undefined;
  };
