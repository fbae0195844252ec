// Issue 28, finding 14: on an https site every cookie of the ticket office is Secure (the `lng` cookie was not).
import { afterEach, describe, expect, it, vi } from "vitest";

/** The cookies the ticket office sets on a site at `publicUrl`: the language switch's answer, and a session's. */
async function cookiesOn(publicUrl: string | undefined) {
  vi.resetModules();
  vi.stubEnv("PUBLIC_URL", publicUrl);
  const [{ action }, { sessionStorage }] = await Promise.all([
    import("../routes/language/route"),
    import("./session.server"),
  ]);
  const request = new Request(`${publicUrl ?? "http://localhost:3000"}/language`, {
    method: "POST",
    body: new URLSearchParams({ lng: "fr", redirectTo: "/tickets/demo" }),
  });
  const answer = await action({ request, params: {}, context: {} } as never);
  return {
    language: answer.headers.get("Set-Cookie") ?? "",
    session: await sessionStorage.commitSession(await sessionStorage.getSession()),
  };
}

const isSecure = (cookie: string) => cookie.split(/;\s*/).some((attribute) => attribute.toLowerCase() === "secure");

describe("the ticket office's cookies", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("are Secure on an https PUBLIC_URL: the language choice as well as the session", async () => {
    const { language, session } = await cookiesOn("https://tickets.example.org");
    expect(language).toMatch(/^lng=/);
    expect(isSecure(language)).toBe(true);
    expect(isSecure(session)).toBe(true);
  });

  it("are not on plain http (browsers would drop them), nor without PUBLIC_URL (http://localhost)", async () => {
    for (const publicUrl of ["http://localhost:3000", undefined]) {
      const { language, session } = await cookiesOn(publicUrl);
      expect(language).toMatch(/^lng=/);
      expect(isSecure(language)).toBe(false);
      expect(isSecure(session)).toBe(false);
    }
  });
});
