import type { AuthMe, TokenPair } from "@ticketing/shared/schemas/auth";
import type { AuthProvider, UserIdentity } from "react-admin";
import type { ApiClient } from "./dataProvider.ts";

/** Where the product server serves the back office (`<Admin basename>`). */
export const BASENAME = "/admin";
/** docs/specification.md §2.2: the back office's auth pages live under /auth (react-admin's own /login stays too). */
export const LOGIN_PATH = "/auth/login";
/** react-admin takes the redirections of the auth provider as they are, without its basename. */
const LOGIN_URL = `${BASENAME}${LOGIN_PATH}`;

/** docs/specification.md §9: the auth token key of local storage, holding `{accessToken, refreshToken}`. */
export const AUTH_TOKEN_KEY = "authToken";

export type Tokens = TokenPair;

/** Calls `POST /auth/token/refresh` without a bearer token and answers the rotated tokens. */
export type RefreshRequest = (refreshToken: string) => Promise<Tokens>;

export interface Session {
  getTokens(): Tokens | null;
  setTokens(tokens: Tokens): void;
  clear(): void;
  /**
   * Called when a request made with `usedAccessToken` got a 401. Answers whether the caller may
   * retry with the (new) stored access token. Refresh tokens are rotated (the old one is revoked),
   * so concurrent 401s share one refresh call instead of racing with the same refresh token.
   */
  refresh(usedAccessToken: string | null, request: RefreshRequest): Promise<boolean>;
}

function isTokens(value: unknown): value is Tokens {
  if (typeof value !== "object" || value === null) return false;
  const { accessToken, refreshToken } = value as Record<string, unknown>;
  return typeof accessToken === "string" && typeof refreshToken === "string";
}

export function createSession(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">): Session {
  let inFlight: Promise<boolean> | null = null;

  const getTokens = (): Tokens | null => {
    const raw = storage.getItem(AUTH_TOKEN_KEY);
    if (!raw) return null;
    try {
      const parsed: unknown = JSON.parse(raw);
      return isTokens(parsed) ? parsed : null;
    } catch {
      return null;
    }
  };
  const setTokens = (tokens: Tokens) => {
    storage.setItem(
      AUTH_TOKEN_KEY,
      JSON.stringify({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }),
    );
  };
  const clear = () => storage.removeItem(AUTH_TOKEN_KEY);

  const refresh = (usedAccessToken: string | null, request: RefreshRequest): Promise<boolean> => {
    if (inFlight) return inFlight;
    const tokens = getTokens();
    if (!tokens) return Promise.resolve(false);
    // Another request refreshed while this one was on the wire: just retry with the new token.
    if (tokens.accessToken !== usedAccessToken) return Promise.resolve(true);
    inFlight = request(tokens.refreshToken)
      .then(
        (rotated) => {
          setTokens(rotated);
          return true;
        },
        () => {
          clear();
          return false;
        },
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  return { getTokens, setTokens, clear, refresh };
}

/** `GET /auth/me` as the back office reads it: its tokens are always a back-office user's. */
type MeAnswer = AuthMe & { user: NonNullable<AuthMe["user"]> };

/** The joined `errors` of an HttpError built by the data provider (`body.messages`). */
function messageOf(error: unknown): string {
  const messages = (error as { body?: { messages?: unknown } }).body?.messages;
  return Array.isArray(messages) ? messages.join("\n") : "";
}

function isStatus(error: unknown, ...statuses: number[]): boolean {
  return typeof error === "object" && error !== null && statuses.includes((error as { status?: number }).status ?? 0);
}

export function createAuthProvider({ api, session }: { api: ApiClient; session: Session }): AuthProvider {
  return {
    async login({ email, password }: { email: string; password: string }) {
      try {
        const { json } = await api.call<Tokens>("/auth/login", {
          method: "POST",
          body: { email, password },
          anonymous: true,
        });
        session.setTokens(json);
      } catch (error) {
        // The API's own 400 sentence (wrong credentials, unconfirmed email) is already in the user's
        // language; without one, docs/specification.md §8's "Wrong username or password, please try again".
        if (isStatus(error, 400) && messageOf(error)) throw new Error(messageOf(error));
        if (isStatus(error, 400, 401, 403)) throw new Error("admin.auth.wrongCredentials");
        throw error;
      }
    },

    // Answers where to go: react-admin then clears its query cache and store (useLogout).
    async logout() {
      const tokens = session.getTokens();
      session.clear();
      if (!tokens) return LOGIN_URL;
      try {
        await api.call("/auth/logout", {
          method: "POST",
          body: { refreshToken: tokens.refreshToken },
          anonymous: true,
        });
      } catch {
        // The tokens are gone from this browser either way; the refresh token expires on its own.
      }
      return LOGIN_URL;
    },

    // `message: false`: going to the login page needs no "please sign in" notification.
    checkAuth: () =>
      session.getTokens() ? Promise.resolve() : Promise.reject({ message: false, redirectTo: LOGIN_URL }),

    async checkError(error: unknown) {
      // The data provider already tried one refresh before letting a 401 through (docs/specification.md §8).
      if (isStatus(error, 401)) {
        session.clear();
        throw { message: "ra.notification.logged_out", redirectTo: LOGIN_URL };
      }
    },

    async getIdentity(): Promise<UserIdentity> {
      const { json } = await api.call<MeAnswer>("/auth/me");
      const { user } = json;
      const fullName = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;
      return { id: user.id, fullName, email: user.email, isSuperuser: user.isSuperuser === true };
    },

    async getPermissions() {
      return undefined;
    },
  };
}
