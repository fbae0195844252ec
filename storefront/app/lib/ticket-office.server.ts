// What every ticket-office loader and action starts from: the event, testing mode, language, the visitor's
// login (cookie session) and API clients. Redirects and answers go through it so a renewed token is saved.

import type { TokenPair } from "@ticketing/shared/schemas/auth";
import type { PublicInfos } from "@ticketing/shared/schemas/events";
import { type AppLoadContext, data, redirect } from "react-router";
import type { Language } from "../i18n";
import { getLanguage } from "../i18n.server";
import { type ApiClient, createApiClient } from "./api.server";
import { currentPath } from "./next-url";
import { locateOffice, type OfficeLocation, type OfficeStep, officeHref } from "./office-paths";
import { loginKey, sessionStorage, type TicketOfficeSession } from "./session.server";

interface Args {
  request: Request;
  params: { path?: string };
  context: AppLoadContext;
}

// Loaders of one request (layout and page) share the event's public infos.
const publicInfosByRequest = new WeakMap<Request, Promise<PublicInfos>>();

export class TicketOffice {
  private sessionChanged = false;
  private loginApi: ApiClient | null = null;

  private constructor(
    readonly request: Request,
    readonly location: OfficeLocation,
    readonly language: Language,
    readonly event: PublicInfos,
    readonly api: ApiClient,
    private readonly context: AppLoadContext,
    private readonly session: TicketOfficeSession,
  ) {}

  /** Loads the event by its path (404 page when unknown) and the visitor's session. */
  static async open({ request, params, context }: Args): Promise<TicketOffice> {
    if (!params.path) throw data(null, { status: 404 });
    const location = locateOffice(new URL(request.url).pathname, params.path);
    const language = await getLanguage(request);
    const api = createApiClient({ context, locale: language });
    let publicInfos = publicInfosByRequest.get(request);
    if (!publicInfos) {
      publicInfos = api.get<PublicInfos>("/events/public-infos", { path: location.path });
      publicInfosByRequest.set(request, publicInfos);
    }
    const [event, session] = await Promise.all([publicInfos, sessionStorage.getSession(request.headers.get("Cookie"))]);
    return new TicketOffice(request, location, language, event, api, context, session);
  }

  get testing() {
    return this.location.testing;
  }

  href(step: OfficeStep) {
    return officeHref(this.location.base, step);
  }

  /** SPEC 4: basket actions need testing mode, or open registrations and allowed item changes. */
  get areBasketActionsAllowed() {
    return this.testing || (this.event.areRegistrationsAllowed && this.event.isBasketItemModificationAllowed);
  }

  /** SPEC 4: starting a payment needs testing mode or open payments. */
  get isPaymentAllowed() {
    return this.testing || this.event.arePaymentsAllowed;
  }

  private get loginKey() {
    return loginKey(this.event.id, this.testing);
  }

  get isLoggedIn() {
    return Boolean(this.session.get("logins")?.[this.loginKey]);
  }

  setLogin(tokens: TokenPair) {
    const { accessToken, refreshToken } = tokens;
    this.session.set("logins", { ...this.session.get("logins"), [this.loginKey]: { accessToken, refreshToken } });
    this.sessionChanged = true;
  }

  private dropLogin() {
    const { [this.loginKey]: _dropped, ...others } = this.session.get("logins") ?? {};
    this.session.set("logins", others);
    this.sessionChanged = true;
  }

  /** The login page, coming back to the current page afterwards. */
  loginUrl() {
    return `${this.href("login")}?${new URLSearchParams({ nextUrl: currentPath(this.request) })}`;
  }

  /**
   * The API client acting as the visitor's ticket-office login. Without a login, or when its tokens
   * cannot be renewed, it throws a redirect to the login page (SPEC 2.3, SPEC 8).
   */
  async requireLoginApi(): Promise<ApiClient> {
    if (!this.isLoggedIn) throw await this.redirect(this.loginUrl());
    this.loginApi ??= createApiClient({
      context: this.context,
      locale: this.language,
      auth: {
        tokens: () => this.session.get("logins")?.[this.loginKey] ?? null,
        refreshed: (tokens) => this.setLogin(tokens),
        expired: async () => {
          this.dropLogin();
          throw await this.redirect(this.loginUrl());
        },
      },
    });
    return this.loginApi;
  }

  /** Headers that save the session when this request changed it. */
  async headers(): Promise<Headers> {
    const headers = new Headers();
    if (this.sessionChanged) headers.append("Set-Cookie", await sessionStorage.commitSession(this.session));
    return headers;
  }

  async redirect(to: string, init?: ResponseInit) {
    return redirect(to, { ...init, headers: await this.headers() });
  }

  async data<T>(value: T, init?: ResponseInit) {
    return data(value, { ...init, headers: await this.headers() });
  }
}
