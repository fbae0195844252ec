// The ticket office's cookies (its session, the visitor's language) are Secure on an https site, so that a browser
// never sends them over plain http. Browsers drop Secure cookies on plain http, which is how the product runs
// locally: there they are not.
export const ARE_COOKIES_SECURE = process.env.PUBLIC_URL?.startsWith("https://") ?? false;
