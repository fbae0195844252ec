// What every ticket-office loader and action starts from: the event, testing mode, language, the visitor's
// login (cookie session) and API clients. Redirects and answers go through it so a renewed token is saved.

import type { Language } from "@ticketing/shared/constants";
import type { TokenPair } from "@ticketing/shared/schemas/auth";
import type { PublicInfos } from "@ticketing/shared/schemas/events";
import { type AppLoadContext, data, redirect } from "react-router";
import { getLanguage } from "../i18n.server";
import { type ApiClient, createApiClient, refusedStatus } from "./api.server";
import type { RegistrationsClosed } from "./error-reasons";
import { currentPath } from "./next-url";
import { locateOffice, type OfficeLocation, type OfficeStep, officeHref } from "./office-paths";
import { loginKey, sessionStorage, type TicketOfficeSession } from "./session.server";

interface Args {
  request: Request;
  params: { path?: string };
  context: AppLoadContext;
}

/** The session cookie of one request, shared by its loaders (layout and page): a token renewed by one is the other's. */
interface SharedSession {
  session: TicketOfficeSession;
  isChanged: boolean;
}

// Loaders of one request share the session and the event's lookup (a preview's goes through the staff's login).
const sessionByRequest = new WeakMap<Request, Promise<SharedSession>>();
const eventByRequest = new WeakMap<Request, Promise<PublicInfos | null>>();

function sharedSession(request: Request) {
  let shared = sessionByRequest.get(request);
  if (!shared) {
    shared = sessionStorage
      .getSession(request.headers.get("Cookie"))
      .then((session) => ({ session, isChanged: false }));
    sessionByRequest.set(request, shared);
  }
  return shared;
}

interface VisitParts {
  request: Request;
  location: OfficeLocation;
  language: Language;
  /** The API client without a login. */
  api: ApiClient;
  context: AppLoadContext;
  shared: SharedSession;
}

/** A request to the ticket office, before its event is known: where, in which language, with which session. */
export class OfficeVisit {
  readonly request: Request;
  readonly location: OfficeLocation;
  readonly language: Language;
  readonly api: ApiClient;
  protected readonly context: AppLoadContext;
  protected readonly shared: SharedSession;
  /** Cookies the API set for the visitor during this request (device cookies), for its answer. */
  private readonly apiCookies: string[] = [];

  constructor(parts: VisitParts) {
    this.request = parts.request;
    this.location = parts.location;
    this.language = parts.language;
    this.api = parts.api;
    this.context = parts.context;
    this.shared = parts.shared;
  }

  get testing() {
    return this.location.testing;
  }

  href(step: OfficeStep) {
    return officeHref(this.location.base, step);
  }

  /** The login page, coming back to the current page afterwards. */
  loginUrl() {
    return `${this.href("login")}?${new URLSearchParams({ nextUrl: currentPath(this.request) })}`;
  }

  protected loginTokens(eventId: number) {
    return this.shared.session.get("logins")?.[loginKey(eventId, this.testing)] ?? null;
  }

  /** Keeps the login's tokens; a preview also remembers which event its path was signed in to. */
  protected saveLogin(eventId: number, tokens: TokenPair) {
    const { session } = this.shared;
    const { accessToken, refreshToken } = tokens;
    session.set("logins", {
      ...session.get("logins"),
      [loginKey(eventId, this.testing)]: { accessToken, refreshToken },
    });
    if (this.testing) session.set("previews", { ...session.get("previews"), [this.location.path]: eventId });
    this.shared.isChanged = true;
  }

  private dropLogin(eventId: number) {
    const { session } = this.shared;
    const { [loginKey(eventId, this.testing)]: _dropped, ...others } = session.get("logins") ?? {};
    session.set("logins", others);
    this.shared.isChanged = true;
  }

  /**
   * The API client acting as the visitor's login to the event: it renews the tokens, and when they cannot be
   * renewed it throws a redirect to the login page (docs/specification.md §2.3, §8).
   */
  protected loginClient(eventId: number): ApiClient {
    return createApiClient({
      context: this.context,
      locale: this.language,
      auth: {
        tokens: () => this.loginTokens(eventId),
        refreshed: (tokens) => this.saveLogin(eventId, tokens),
        expired: async () => {
          this.dropLogin(eventId);
          throw await this.redirect(this.loginUrl());
        },
      },
    });
  }

  /**
   * The event at this path. Live: a public (or closed) event, else the 404 page. A preview: looked up with the
   * testing login its staff signed in with (the API checks they belong to the event's unit); before that sign-in
   * (or when the path now names another event), only what anybody may see: a public event, null for a draft.
   */
  async lookUpEvent(): Promise<PublicInfos | null> {
    const { path } = this.location;
    if (!this.testing) return this.api.get<PublicInfos>("/events/public-infos", { path });
    const eventId = this.shared.session.get("previews")?.[path];
    if (eventId !== undefined && this.loginTokens(eventId)) {
      const event = await this.loginClient(eventId).get<PublicInfos>("/events/public-infos", { path, testing: true });
      if (event.id === eventId) return event;
    }
    try {
      return await this.api.get<PublicInfos>("/events/public-infos", { path });
    } catch (error) {
      if (refusedStatus(error) === 404) return null;
      throw error;
    }
  }

  /**
   * Signs staff in with their back-office account (`POST /auth/login`) and answers their access token. Their
   * browser's device cookies for it go along, and the new one comes back in this answer's headers: a browser that
   * signed in before is not locked out by others' wrong passwords (docs/decisions/0033).
   */
  async signInStaff(email: string, password: string): Promise<string> {
    const { answer, setCookies } = await this.api.signIn<TokenPair>(
      "/auth/login",
      { email, password },
      this.request.headers.get("Cookie"),
    );
    this.apiCookies.push(...setCookies);
    return answer.accessToken;
  }

  /**
   * Signs staff in to the preview with their back-office token: the event must be theirs to preview (false
   * otherwise, the same for a path that names nothing), then a testing login is made for it and kept. The staff
   * token itself is not kept.
   */
  async signInToPreview(staffToken: string): Promise<boolean> {
    const staff = createApiClient({ context: this.context, locale: this.language, accessToken: staffToken });
    let event: PublicInfos;
    try {
      event = await staff.get<PublicInfos>("/events/public-infos", { path: this.location.path, testing: true });
    } catch (error) {
      if (refusedStatus(error) === 404) return false;
      throw error;
    }
    const login = await staff.post<TokenPair>("/auth/anonymous-login", {
      activeModuleId: event.registrationModuleId,
      isTesting: true,
    });
    this.saveLogin(event.id, login);
    return true;
  }

  /** Headers that save the session when this request changed it, and the API's cookies for the visitor. */
  async headers(): Promise<Headers> {
    const headers = new Headers();
    if (this.shared.isChanged) headers.append("Set-Cookie", await sessionStorage.commitSession(this.shared.session));
    for (const cookie of this.apiCookies) headers.append("Set-Cookie", cookie);
    return headers;
  }

  async redirect(to: string, init?: ResponseInit) {
    return redirect(to, { ...init, headers: await this.headers() });
  }

  async data<T>(value: T, init?: ResponseInit) {
    return data(value, { ...init, headers: await this.headers() });
  }
}

/**
 * The preview of a draft (or of no event at all) before its staff signs in (docs/design.md §4: testing logins are for
 * the event's staff): nothing of the event is known or shown, only the staff sign-in.
 */
export class PreviewSignIn extends OfficeVisit {}

export class TicketOffice extends OfficeVisit {
  private loginApi: ApiClient | null = null;

  private constructor(
    parts: VisitParts,
    readonly event: PublicInfos,
  ) {
    super(parts);
  }

  /**
   * The office of the path, or the staff sign-in of a preview not signed in yet. An unknown path (or a draft's
   * live path) is the 404 page.
   */
  static async enter({ request, params, context }: Args): Promise<TicketOffice | PreviewSignIn> {
    if (!params.path) throw data(null, { status: 404 });
    const location = locateOffice(new URL(request.url).pathname, params.path);
    const language = await getLanguage(request);
    const api = createApiClient({ context, locale: language });
    const parts = { request, location, language, api, context, shared: await sharedSession(request) };
    let lookup = eventByRequest.get(request);
    if (!lookup) {
      lookup = new OfficeVisit(parts).lookUpEvent();
      eventByRequest.set(request, lookup);
    }
    const event = await lookup;
    return event ? new TicketOffice(parts, event) : new PreviewSignIn(parts);
  }

  /**
   * A live office's event and location, read without the visitor's session (404 page when the path names no public
   * event), or null for a preview, which needs `enter`. The layout asks no more of a live office, and the welcome
   * page nothing else: the session cookie (its signature checked, its JSON read) is read only by the loaders that
   * act for the visitor's login. The lookup is the request's, shared with its page's loader.
   */
  static async liveEvent({
    request,
    params,
    context,
  }: Args): Promise<{ event: PublicInfos; location: OfficeLocation } | null> {
    if (!params.path) throw data(null, { status: 404 });
    const location = locateOffice(new URL(request.url).pathname, params.path);
    if (location.testing) return null;
    let lookup = eventByRequest.get(request);
    if (!lookup) {
      lookup = (async () => {
        const api = createApiClient({ context, locale: await getLanguage(request) });
        return api.get<PublicInfos>("/events/public-infos", { path: location.path });
      })();
      eventByRequest.set(request, lookup);
    }
    const event = await lookup;
    if (!event) throw data(null, { status: 404 });
    return { event, location };
  }

  /** Loads the event by its path (404 page when unknown); a preview not signed in yet goes to its sign-in. */
  static async open(args: Args): Promise<TicketOffice> {
    const office = await TicketOffice.enter(args);
    if (office instanceof PreviewSignIn) throw await office.redirect(office.loginUrl());
    return office;
  }

  /** docs/specification.md §4: basket actions need testing mode, or open registrations and allowed item changes. */
  get areBasketActionsAllowed() {
    return this.testing || (this.event.areRegistrationsAllowed && this.event.isBasketItemModificationAllowed);
  }

  /**
   * The answer to the buy page, or to a checkout step with nothing to check out, while registrations are not open:
   * docs/specification.md §5's 404, on a page that says why and leads back to the event's page (docs/decisions/0034).
   */
  async registrationsClosed() {
    return this.data<RegistrationsClosed>(
      { reason: "registrationsClosed", eventHref: this.location.base },
      { status: 404 },
    );
  }

  /** docs/specification.md §4: starting a payment needs testing mode or open payments. */
  get isPaymentAllowed() {
    return this.testing || this.event.arePaymentsAllowed;
  }

  get isLoggedIn() {
    return this.loginTokens(this.event.id) !== null;
  }

  setLogin(tokens: TokenPair) {
    this.saveLogin(this.event.id, tokens);
  }

  /** The API client acting as the visitor's ticket-office login; without a login, a redirect to the login page. */
  async requireLoginApi(): Promise<ApiClient> {
    if (!this.isLoggedIn) throw await this.redirect(this.loginUrl());
    this.loginApi ??= this.loginClient(this.event.id);
    return this.loginApi;
  }
}
