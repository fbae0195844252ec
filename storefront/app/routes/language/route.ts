export { action, loader } from "./route.server";

/**
 * Never shown (the loader redirects), but it makes this a page route rather than a resource route: a post refused
 * here (not a form, lib/posted-form.server.ts) is answered with the error page, in the visitor's language, not
 * with React Router's JSON.
 */
export default function LanguageSwitch() {
  return null;
}
