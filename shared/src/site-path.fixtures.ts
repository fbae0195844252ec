// Redirect targets that lead off the site, each written the way an attacker would try it: the table every
// entry point that takes a redirect target is tested with (shared/site-path, the API, the storefront routes).

export const OFF_SITE_TARGETS: [label: string, value: string][] = [
  ["a dot-dot segment before a double slash", "/..//evil.example/phish"],
  ["an encoded dot-dot segment", "/%2e%2e//evil.example/phish"],
  ["an upper-case encoded dot-dot segment", "/%2E%2E//evil.example/phish"],
  ["a half-encoded dot-dot segment", "/.%2e//evil.example/phish"],
  ["a dot segment before a double slash", "/.//evil.example/phish"],
  ["a dot-dot segment after a real one", "/tickets/..//evil.example/phish"],
  ["a protocol-relative URL", "//evil.example/phish"],
  ["a backslash", "/\\evil.example/phish"],
  ["a dot-dot segment before a backslash", "/..\\evil.example/phish"],
  ["a tab between the slashes", "/\t/evil.example/phish"],
  ["a newline between the slashes", "/\n/evil.example/phish"],
  ["a carriage return between the slashes", "/\r/evil.example/phish"],
  ["an absolute https URL", "https://evil.example/phish"],
  ["a scheme without slashes", "https:evil.example/phish"],
  ["a javascript URL", "javascript:alert(document.domain)"],
  ["a data URL", "data:text/html,<script>alert(1)</script>"],
  ["a relative path", "evil.example/phish"],
  ["a leading space", " /tickets/demo/buy"],
  ["an empty string", ""],
];

/**
 * Targets that stay on the site once normalised, with what they normalise to: percent-encoded slashes and
 * backslashes, and look-alike slashes, are ordinary characters of one path segment.
 */
export const ON_SITE_TARGETS: [label: string, value: string, normalised: string][] = [
  ["a path with its query and fragment", "/tickets/demo/buy?step=2#top", "/tickets/demo/buy?step=2#top"],
  ["dot-dot segments that stay on the site", "/tickets/../../admin", "/admin"],
  ["an encoded backslash", "/%5cevil.example/phish", "/%5cevil.example/phish"],
  ["encoded slashes", "/%2f%2fevil.example/phish", "/%2f%2fevil.example/phish"],
  ["fullwidth slashes", "/\uff0f\uff0fevil.example/phish", "/%EF%BC%8F%EF%BC%8Fevil.example/phish"],
  ["a division slash", "/\u2215\u2215evil.example/phish", "/%E2%88%95%E2%88%95evil.example/phish"],
  ["a double slash in the query", "/tickets/demo/buy?back=//evil.example", "/tickets/demo/buy?back=//evil.example"],
];
