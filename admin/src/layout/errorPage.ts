/**
 * docs/specification.md §2.5 / §8: the error page shown for an HTTP status (404 of a resource, 403, 5xx, other 4xx).
 */
export interface ErrorPageContent {
  title: string;
  /** i18n options of the title */
  options?: Record<string, unknown>;
  text?: string;
}

export function errorPageOf(status: number | undefined): ErrorPageContent {
  if (status === 404) return { title: "admin.errorPages.resourceNotFound" };
  if (status === 403) return { title: "admin.errorPages.accessDenied", text: "admin.errorPages.accessDeniedText" };
  if (status !== undefined && status >= 400 && status < 500) {
    return { title: "admin.errorPages.errorCode", options: { errorCode: status } };
  }
  return { title: "admin.errorPages.internalServerError" };
}
