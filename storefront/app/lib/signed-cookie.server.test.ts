import { createCookie, createCookieSessionStorage } from "react-router";
import { describe, expect, it } from "vitest";
import { createSignedCookie, type SignedCookieOptions } from "./signed-cookie.server";

const options: SignedCookieOptions = {
  secrets: ["s3cret"],
  path: "/",
  maxAge: 60,
  httpOnly: true,
  secure: false,
  sameSite: "lax",
};
// A login with a character outside Latin-1, so that the UTF-8 of the JSON is part of what must match.
const data = { logins: { "1:live": { accessToken: "a.b.c", refreshToken: "r-é-€" } }, previews: { demo: 1 } };
/** The Cookie header a browser sends back for a Set-Cookie header. */
const sentBack = (setCookie: string) => setCookie.split(";")[0] as string;

describe("createSignedCookie", () => {
  it("reads the cookies React Router's own signed cookie wrote (nobody is signed out by the change)", async () => {
    const old = createCookie("session", { ...options, sameSite: "lax" });
    const header = sentBack(await old.serialize(data));
    expect(await createSignedCookie("session", options).parse(`other=1; ${header}`)).toEqual(data);
  });

  it("writes what React Router's own cookie reads, with the same attributes", async () => {
    const ours = await createSignedCookie("session", options).serialize(data);
    const theirs = await createCookie("session", options).serialize(data);
    expect(ours).toBe(theirs);
    expect(await createCookie("session", options).parse(sentBack(ours))).toEqual(data);
  });

  it("refuses a tampered value, a tampered signature, another secret and an unsigned value", async () => {
    const cookie = createSignedCookie("session", options);
    const [value, hash] = decodeURIComponent(sentBack(await cookie.serialize(data)).slice("session=".length)).split(
      ".",
    ) as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...data, previews: { demo: 2 } })).toString("base64");
    const flipped = `${hash.slice(0, -1)}${hash.endsWith("A") ? "B" : "A"}`;
    const other = sentBack(await createSignedCookie("session", { ...options, secrets: ["other"] }).serialize(data));
    for (const header of [
      `session=${encodeURIComponent(`${forged}.${hash}`)}`,
      `session=${encodeURIComponent(`${value}.${flipped}`)}`,
      `session=${encodeURIComponent(`${value}.${hash}x`)}`,
      `session=${encodeURIComponent(value)}`,
      other,
    ])
      expect(await cookie.parse(header)).toBeNull();
  });

  it("reads a cookie signed with an older secret and signs with the newest", async () => {
    const older = sentBack(await createSignedCookie("session", options).serialize(data));
    const rotated = createSignedCookie("session", { ...options, secrets: ["new", "s3cret"] });
    expect(await rotated.parse(older)).toEqual(data);
    const newer = sentBack(await rotated.serialize(data));
    expect(await createSignedCookie("session", { ...options, secrets: ["new"] }).parse(newer)).toEqual(data);
    expect(await createSignedCookie("session", options).parse(newer)).toBeNull();
  });

  it("gives a session storage an empty session without the cookie or with a refused one", async () => {
    const storage = createCookieSessionStorage({ cookie: createSignedCookie("session", options) });
    expect((await storage.getSession(null)).data).toEqual({});
    expect((await storage.getSession("session=nope.nope")).data).toEqual({});
    const session = await storage.getSession(null);
    session.set("previews", { demo: 1 });
    const header = sentBack(await storage.commitSession(session));
    expect((await storage.getSession(header)).get("previews")).toEqual({ demo: 1 });
  });
});
