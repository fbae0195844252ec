import type { AnchorHTMLAttributes } from "react";

/**
 * A link to one of the site's pages: a plain anchor. React Router's <Link> resolves its path against the route's
 * matches and marks it for its client's route discovery (`data-discover`), but the ticket office ships no framework
 * JavaScript (docs/decisions/0006): the anchor is all a browser, or Turbo, follows, and React Router's work cost a
 * few % of every page. Paths are absolute, as the office's are built (lib/office-paths.ts).
 */
export function Link({ to, ...attributes }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  return <a href={to} {...attributes} />;
}
