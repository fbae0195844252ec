import { camelizeKeys, camelPath, snakifyKeys, toSnake } from "@ticketing/shared/case";
import type { ExportFormat, ExportList, Language } from "@ticketing/shared/constants";
import type { Detail, PasswordChange, PasswordReset, Registration } from "@ticketing/shared/schemas/auth";
import type * as Catalogue from "@ticketing/shared/schemas/catalogue";
import type {
  CheckInCounts,
  CheckInDouble,
  CheckInResult,
  CheckInScan,
  CheckInSnapshot,
  CheckInSync,
  CheckInSyncResult,
} from "@ticketing/shared/schemas/check-ins";
import type { EventCancellation, EventCancellationRequest } from "@ticketing/shared/schemas/event-cancellation";
import type {
  AddedArticle,
  Article,
  Communication,
  CommunicationMail,
  MailPreview,
  NewArticle,
  PricePreviewRow,
  TestMailSent,
} from "@ticketing/shared/schemas/events";
import type { PersonalData, PersonalDataErased, PersonalDataErasure } from "@ticketing/shared/schemas/personal-data";
import type {
  BasketMail,
  Dashboard,
  InvoicePaid,
  RefundMade,
  RefundRequest,
  StocksTable,
} from "@ticketing/shared/schemas/sales";
import type { Unit, UnitStripeSettings } from "@ticketing/shared/schemas/units";
import type { User } from "@ticketing/shared/schemas/users";
import type { WaitingList, WaitingListEntry, WaitingListSettings } from "@ticketing/shared/schemas/waiting-list";
import type { WaitingRoom, WaitingRoomAction, WaitingRoomSettings } from "@ticketing/shared/schemas/waiting-room";
import simpleRestProvider from "ra-data-simple-rest";
import { type DataProvider, fetchUtils, HttpError, type Identifier, type RaRecord } from "react-admin";
import type { Session, Tokens } from "./authProvider.ts";

// The wire is snake_case (docs/design.md §3), the admin's code camelCase. This module is the one place of the admin
// that converts, both ways (request bodies, filter keys, sort fields, answers and field errors), with the
// converter the API and the ticket office use (@ticketing/shared/case).

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function snakeCaseJsonBody(body: BodyInit | null | undefined): BodyInit | null | undefined {
  if (typeof body !== "string") return body;
  try {
    return JSON.stringify(snakifyKeys(JSON.parse(body)));
  } catch {
    return body;
  }
}

/** docs/specification.md §5: the messages of an error body, a list of strings or `{errors: [strings]}`. */
function messagesOf(body: unknown): string[] {
  const list = isPlainObject(body) ? body.errors : body;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string" && item !== "") : [];
}

function fieldErrorsOf(body: unknown): Record<string, string> {
  const fieldErrors = isPlainObject(body) ? body.field_errors : undefined;
  if (!isPlainObject(fieldErrors)) return {};
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([field, message]) => [
      camelPath(field),
      Array.isArray(message) ? message.join(" ") : String(message),
    ]),
  );
}

/**
 * `{errors: [...], field_errors: {...}}` → an HttpError whose `body.errors` is what react-admin's forms
 * expect: camelCase field names for inline errors, and `root.serverError` for the notification.
 */
function toReactAdminError(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  const status: number = error.status;
  const messages = messagesOf(error.body);
  const fieldErrors = fieldErrorsOf(error.body);
  if (messages.length === 0 && Object.keys(fieldErrors).length === 0) {
    // docs/specification.md §5: a 400 without readable messages shows the "unexpected error" message.
    return new HttpError(status === 400 ? "admin.errors.unexpected" : error.message, status, camelizeKeys(error.body));
  }
  const message = messages.length > 0 ? messages.join("\n") : "ra.message.invalid_form";
  return new HttpError(message, status, { messages, errors: { ...fieldErrors, root: { serverError: message } } });
}

function isUnauthorized(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401;
}

export interface HttpOptions extends fetchUtils.Options {
  /** No bearer token and no refresh: logins and the refresh call itself. */
  anonymous?: boolean;
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** camelCase; sent as snake_case JSON. */
  body?: unknown;
  anonymous?: boolean;
  signal?: AbortSignal;
}

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  /** The answer with camelCase keys. */
  json: T;
}

export interface ApiClient {
  readonly url: string;
  /** `fetchUtils.fetchJson`'s signature, for ra-data-simple-rest. */
  httpClient(url: string, options?: HttpOptions): Promise<ApiAnswer<unknown> & { body: string }>;
  call<T>(path: string, request?: ApiRequest): Promise<ApiAnswer<T>>;
  /** Keeps the tokens the API issued to replace this session's (a password change ends every other one). */
  keepTokens(tokens: Tokens): void;
  /**
   * A file the API answers (a PDF), with the name its Content-Disposition gives; errors as for JSON calls. With a
   * `body`, a POST of it as JSON (snake_case keys).
   */
  download(path: string, body?: unknown): Promise<{ blob: Blob; fileName: string | null }>;
}

export function createApiClient({
  url,
  session,
  getLanguage,
}: {
  url: string;
  session: Session;
  getLanguage: () => string;
}): ApiClient {
  const httpClient: ApiClient["httpClient"] = async (target, options = {}) => {
    const { anonymous = false, ...init } = options;
    const body = snakeCaseJsonBody(init.body);
    const send = (accessToken: string | null) => {
      const headers = new Headers(init.headers);
      if (!headers.has("Accept")) headers.set("Accept", "application/json");
      headers.set("Accept-Language", getLanguage());
      if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
      return fetchUtils.fetchJson(target, { ...init, body, headers });
    };
    const accessToken = anonymous ? null : (session.getTokens()?.accessToken ?? null);
    try {
      let answer: Awaited<ReturnType<typeof send>>;
      try {
        answer = await send(accessToken);
      } catch (error) {
        // One refresh, one retry; a second 401 goes to authProvider.checkError, which logs out.
        if (anonymous || !isUnauthorized(error) || !(await session.refresh(accessToken, requestRefresh))) throw error;
        answer = await send(session.getTokens()?.accessToken ?? null);
      }
      return { ...answer, json: camelizeKeys(answer.json) };
    } catch (error) {
      throw toReactAdminError(error);
    }
  };

  const call = async <T>(path: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> => {
    const { body, ...init } = request;
    const answer = await httpClient(`${url}${path}`, {
      ...init,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, headers: answer.headers, json: answer.json as T };
  };

  const requestRefresh = async (refreshToken: string) =>
    (await call<Tokens>("/auth/token/refresh", { method: "POST", body: { refreshToken }, anonymous: true })).json;

  const download: ApiClient["download"] = async (path, body) => {
    const send = (accessToken: string | null) =>
      fetch(`${url}${path}`, {
        ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(snakifyKeys(body)) }),
        headers: {
          "Accept-Language": getLanguage(),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
        },
      });
    const accessToken = session.getTokens()?.accessToken ?? null;
    let response = await send(accessToken);
    if (response.status === 401 && (await session.refresh(accessToken, requestRefresh)))
      response = await send(session.getTokens()?.accessToken ?? null);
    if (!response.ok) {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      throw toReactAdminError(new HttpError(response.statusText || String(response.status), response.status, body));
    }
    const disposition = response.headers.get("Content-Disposition") ?? "";
    return { blob: await response.blob(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
  };

  return { url, httpClient, call, keepTokens: session.setTokens, download };
}

/** `GET /events/:id/articles`, `POST /events/:id/articles`, `GET /events/:id/price-preview` (shared contract). */
export type { AddedArticle, Article, NewArticle, PricePreviewRow };

/** `POST /uploaded-images` answer (shared contract). */
export type UploadedImage = Catalogue.UploadedImage;

/** The account calls' bodies and `{detail}` answers (a sentence in the request's language): shared contract. */
export type { Detail, PasswordChange, PasswordReset, Registration };
/** `GET /users/me`. */
export type Me = User;

export interface TicketingDataProvider extends DataProvider {
  getArticles(eventId: Identifier): Promise<{ data: Article[] }>;
  addArticle(eventId: Identifier, article: NewArticle): Promise<{ data: AddedArticle }>;
  // The element-tree editor (docs/api.md "The element-tree editor").
  moveNode(nodeId: Identifier, target: { parentId: number; order: number }): Promise<{ data: RaRecord }>;
  duplicateNode(nodeId: Identifier): Promise<{ data: RaRecord }>;
  /** One place up or down among the rules pricing `nodeId` (docs/decisions/0032). */
  movePriceRule(ruleId: Identifier, move: Catalogue.PriceRuleMove): Promise<{ data: RaRecord }>;
  /** multipart `file` + `event_id` */
  uploadImage(eventId: Identifier, file: File): Promise<{ data: UploadedImage }>;
  /** The public address of an uploaded image (a thumbnail's `src`). */
  imageUrl(imageId: Identifier): string;
  getPricePreview(
    eventId: Identifier,
    visitor: { email: string; codes: string[] },
  ): Promise<{ data: PricePreviewRow[] }>;
  // Accounts (anonymous but password-change): docs/api.md "Accounts, units, permissions, moderation".
  register(registration: Registration): Promise<{ data: Detail }>;
  verifyRegistration(userIdB64: string, hash: string): Promise<{ data: Detail }>;
  requestPasswordReset(email: string): Promise<{ data: Detail }>;
  resetPassword(reset: PasswordReset): Promise<{ data: Detail }>;
  changePassword(change: PasswordChange): Promise<{ data: Detail }>;
  getMe(): Promise<{ data: Me }>;
  updateMe(names: { firstName: string; lastName: string }): Promise<{ data: Me }>;
  /** `GET /config`, no token. */
  getConfig(): Promise<{ data: { supportEmail: string } }>;
  /** `GET /invoices/:id/pdf?language=`: the invoice (or credit note) as a PDF file, and its name. */
  downloadInvoicePdf(invoiceId: Identifier, language: Language): Promise<{ data: { blob: Blob; fileName: string } }>;
  requestModeration(eventId: Identifier): Promise<{ data: RaRecord }>;
  approveModeration(eventId: Identifier): Promise<{ data: RaRecord }>;
  requestModerationChanges(eventId: Identifier, description: string): Promise<{ data: RaRecord }>;
  /** `PUT /units/:id/stripe`: the unit's Stripe secrets, write-only (the unit answered never carries them). */
  setUnitStripe(unitId: Identifier, settings: UnitStripeSettings): Promise<{ data: Unit }>;
  /** `DELETE /units/:id/stripe`. */
  removeUnitStripe(unitId: Identifier): Promise<{ data: Unit }>;
  /**
   * A unit's webhooks (`/units/:id/webhooks…`, owners and superusers): `path` after `/webhooks`, e.g. `/3/ping`.
   */
  unitWebhooks<T>(unitId: Identifier, path: string, request?: ApiRequest): Promise<{ data: T }>;
  /** `POST /baskets/:id/refunds`: the whole basket (no `itemIds`) or chosen articles, with a reason. */
  refundBasket(basketId: Identifier, refund: RefundRequest): Promise<{ data: RefundMade }>;
  /**
   * `GET /events/:id/stocks?preview=`: the stocks table (docs/specification.md §3), testing sales only with `preview`.
   */
  getEventStocks(eventId: Identifier, preview: boolean): Promise<{ data: StocksTable }>;
  /**
   * `GET /events/:id/dashboard?preview=`: the event's sales figures (docs/specification.md §3), testing ones only with
   * `preview`.
   */
  getEventDashboard(eventId: Identifier, preview: boolean): Promise<{ data: Dashboard }>;
  /** `POST /invoices/:id/mark-paid`: a point-of-sale invoice the buyer paid on site. */
  markInvoicePaid(invoiceId: Identifier): Promise<{ data: InvoicePaid }>;
  /** `POST /baskets/:id/confirmation-mail`: the order confirmation queued again to the billing address. */
  resendConfirmation(basketId: Identifier): Promise<{ data: BasketMail }>;
  /** `GET /baskets/:id/tickets?language=`: the basket's valid tickets as one PDF file, and its name. */
  downloadBasketTickets(basketId: Identifier, language: Language): Promise<{ data: { blob: Blob; fileName: string } }>;
  /**
   * `GET /exports/:list?format=&filter=&sort=` (docs/design.md §3): a back-office list as a csv or xlsx file, with the
   * list's filter and sort (camelCase here, snake_case on the wire), and the name the API gives it.
   */
  downloadExport(
    list: ExportList,
    format: ExportFormat,
    query: ListQuery,
  ): Promise<{ data: { blob: Blob; fileName: string } }>;
  /** `POST /events/:id/check-ins`: one scan at the door, and what it found (the ticket let in, or why not). */
  checkIn(eventId: Identifier, scan: CheckInScan): Promise<{ data: CheckInResult }>;
  /** `GET /events/:id/check-ins/counts?preview=`: tickets sold and checked in, the testing ones with `preview`. */
  getCheckInCounts(eventId: Identifier, preview: boolean): Promise<{ data: CheckInCounts }>;
  // Offline check-in (docs/decisions/0048-offline-check-in.md).
  /** `GET /tickets/public-key`: the instance's public key (SPKI PEM) that verifies ticket codes. */
  getTicketPublicKey(): Promise<{ data: string }>;
  /** `GET /events/:id/check-ins/snapshot?preview=`: the tickets sold now, and whether each is in. */
  getCheckInSnapshot(eventId: Identifier, preview: boolean): Promise<{ data: CheckInSnapshot }>;
  /** `POST /events/:id/check-ins/sync`: the scans a door made offline, each answered. */
  syncCheckIns(eventId: Identifier, sync: CheckInSync): Promise<{ data: CheckInSyncResult }>;
  /** `GET /events/:id/check-ins/doubles?preview=`: the tickets scanned on two devices. */
  getCheckInDoubles(eventId: Identifier, preview: boolean): Promise<{ data: CheckInDouble[] }>;
  /** `POST /events/:id/communication/mail-preview`: the mail as sent, from the form's unsaved `values`. */
  previewCommunicationMail(
    eventId: Identifier,
    preview: { mail: CommunicationMail; language: Language; values: Partial<Communication> },
  ): Promise<{ data: MailPreview }>;
  /** `POST /events/:id/communication/pdf-ticket-preview`: a sample ticket from the form's unsaved `values`. */
  previewCommunicationTicket(
    eventId: Identifier,
    preview: { language: Language; values: Partial<Communication> },
  ): Promise<{ data: Blob }>;
  /** `POST /events/:id/communication/test-mail`: the saved mail, to the signed-in user's address. */
  sendTestMail(
    eventId: Identifier,
    test: { mail: CommunicationMail; language: Language },
  ): Promise<{ data: TestMailSent }>;
  /** `GET /events/:id/waiting-room`: the room live, or null when the event has none (the API's 404). */
  getWaitingRoom(eventId: Identifier): Promise<{ data: WaitingRoom | null }>;
  /** `PUT /events/:id/waiting-room`: switches the room on, or changes its opening, rate or admission time. */
  setWaitingRoom(eventId: Identifier, settings: WaitingRoomSettings): Promise<{ data: WaitingRoom }>;
  /** `POST /events/:id/waiting-room/{open-now,pause,resume,end}`. */
  actOnWaitingRoom(eventId: Identifier, action: WaitingRoomAction): Promise<{ data: WaitingRoom }>;
  /**
   * `GET /events/:id/waiting-list?testing=`: the list's settings and counts (the preview's list with `testing`), or
   * null when the event has none (the API's 404).
   */
  getWaitingList(eventId: Identifier, testing: boolean): Promise<{ data: WaitingList | null }>;
  /** `GET /events/:id/cancellation`: what cancelling would do, or where its refunds stand (docs/decisions/0047). */
  getEventCancellation(eventId: Identifier): Promise<{ data: EventCancellation }>;
  /** `POST /events/:id/cancellation`, `…/retry`, `…/baskets/:basketId/refunded-by-hand`. */
  cancelEvent(eventId: Identifier, request: EventCancellationRequest): Promise<{ data: EventCancellation }>;
  retryCancellationRefunds(eventId: Identifier): Promise<{ data: EventCancellation }>;
  markRefundedByHand(eventId: Identifier, basketId: Identifier): Promise<{ data: EventCancellation }>;
  /** `PUT /events/:id/waiting-list`: switches the list on, or changes its settings. */
  setWaitingList(eventId: Identifier, settings: WaitingListSettings): Promise<{ data: WaitingList }>;
  /** `GET /events/:id/waiting-list/entries?testing=&state=&page=&per_page=`: one page of entries, in order of joining. */
  getWaitingListEntries(eventId: Identifier, query: WaitingListEntriesRequest): Promise<WaitingListEntriesPage>;
  /** `POST /events/:id/waiting-list/entries/:entryId/offer`: the organiser's offer by hand (409 without stock). */
  offerWaitingListEntry(eventId: Identifier, entryId: Identifier): Promise<{ data: unknown }>;
  /** `DELETE /events/:id/waiting-list/entries/:entryId`: the entry removed by the organiser. */
  removeWaitingListEntry(eventId: Identifier, entryId: Identifier): Promise<{ data: unknown }>;
  /** `GET /personal-data?email=`: what is held about a buyer's email in the events the user covers (ADR 0046). */
  getPersonalData(email: string): Promise<{ data: PersonalData }>;
  /** `GET /personal-data?email=&format=`: the same as a JSON or csv file. */
  downloadPersonalData(email: string, format: "json" | "csv"): Promise<{ data: { blob: Blob; fileName: string } }>;
  /** `POST /personal-data/erasures`: erases the buyer's data; `confirmation` is the email typed again. */
  erasePersonalData(email: string, confirmation: string): Promise<{ data: PersonalDataErased }>;
  /** `GET /personal-data/erasures?email=`: the erasures of that address the user may see, newest first. */
  getPersonalDataErasures(email: string): Promise<{ data: PersonalDataErasure[] }>;
}

/** What the back office asks of a waiting list's entries (`GET /events/:id/waiting-list/entries`). */
export interface WaitingListEntriesRequest {
  testing: boolean;
  state?: string;
  page: number;
  perPage: number;
}
export interface WaitingListEntriesPage {
  data: WaitingListEntry[];
  total: number;
}

/**
 * The `communication` resource is an event's communication settings (`/events/:id/communication`), one per event:
 * its record's id is the event's, so that react-admin's Edit loads and saves it by the event's id.
 */
const communicationPath = (eventId: Identifier) => `/events/${encodeURIComponent(eventId)}/communication`;
const waitingRoomPath = (eventId: Identifier) => `/events/${encodeURIComponent(eventId)}/waiting-room`;
const waitingListPath = (eventId: Identifier) => `/events/${encodeURIComponent(eventId)}/waiting-list`;
const waitingListEntryPath = (eventId: Identifier, entryId: Identifier) =>
  `${waitingListPath(eventId)}/entries/${encodeURIComponent(entryId)}`;

export interface ListQuery {
  filter?: Record<string, unknown>;
  sort?: { field: string; order: "ASC" | "DESC" };
}

/**
 * The lists that live under their event (`GET /events/:id/check-ins`): react-admin asks them by resource name with
 * the event in the filter, as the event's other lists (`{eventId}`); the path takes it out of the filter.
 */
const EVENT_LISTS: ReadonlySet<string> = new Set(["check-ins"]);

function listPath(resource: string, filter: Record<string, unknown> = {}) {
  const { eventId, ...rest } = filter;
  if (!EVENT_LISTS.has(resource) || eventId === undefined) return { resource, filter };
  return { resource: `events/${encodeURIComponent(String(eventId))}/${resource}`, filter: rest };
}

function wireQuery<P extends ListQuery>(params: P): P {
  return {
    ...params,
    filter: snakifyKeys(params.filter ?? {}) as Record<string, unknown>,
    sort: params.sort && { ...params.sort, field: toSnake(params.sort.field) },
  };
}

/** PUT takes the fields to change (docs/api.md): read-only fields of the record are not sent back. */
function changedFields(data: Record<string, unknown>, previousData: Record<string, unknown> | undefined) {
  return Object.fromEntries(
    Object.entries(data).filter(
      ([key, value]) => key !== "id" && JSON.stringify(value) !== JSON.stringify(previousData?.[key]),
    ),
  );
}

export function createDataProvider(api: ApiClient): TicketingDataProvider {
  const rest = simpleRestProvider(api.url, api.httpClient);
  const post = async <T>(path: string, body: unknown = {}, anonymous = false) => ({
    data: (await api.call<T>(path, { method: "POST", body, anonymous })).json,
  });
  const eventPath = (eventId: Identifier, action: string) =>
    `/events/${encodeURIComponent(eventId)}/moderation/${action}`;
  const communication = async (eventId: Identifier, request: ApiRequest = {}) => ({
    data: { ...(await api.call<Communication>(communicationPath(eventId), request)).json, id: eventId } as never,
  });
  return {
    ...rest,
    getList: (resource, params) => {
      const { resource: path, filter } = listPath(resource, params.filter);
      return rest.getList(path, wireQuery({ ...params, filter }));
    },
    getManyReference: (resource, params) =>
      rest.getManyReference(resource, { ...wireQuery(params), target: toSnake(params.target) }),
    getOne: (resource, params) =>
      resource === "communication" ? communication(params.id) : rest.getOne(resource, params),
    update: (resource, params) =>
      resource === "communication"
        ? communication(params.id, { method: "PUT", body: changedFields(params.data, params.previousData) })
        : rest.update(resource, { ...params, data: changedFields(params.data, params.previousData) }),
    getArticles: async (eventId) => ({
      data: (await api.call<Article[]>(`/events/${encodeURIComponent(eventId)}/articles`)).json,
    }),
    addArticle: async (eventId, article) => ({
      data: (
        await api.call<AddedArticle>(`/events/${encodeURIComponent(eventId)}/articles`, {
          method: "POST",
          body: article,
        })
      ).json,
    }),
    moveNode: (nodeId, target) => post<RaRecord>(`/nodes/${encodeURIComponent(nodeId)}/move`, target),
    duplicateNode: (nodeId) => post<RaRecord>(`/nodes/${encodeURIComponent(nodeId)}/duplicate`),
    movePriceRule: (ruleId, move) => post<RaRecord>(`/node-price-rules/${encodeURIComponent(ruleId)}/move`, move),
    uploadImage: async (eventId, file) => {
      const body = new FormData();
      body.append("file", file);
      body.append("event_id", String(eventId));
      // A FormData body goes as it is: no JSON content type, no key conversion (see snakeCaseJsonBody).
      const answer = await api.httpClient(`${api.url}/uploaded-images`, { method: "POST", body });
      return { data: answer.json as UploadedImage };
    },
    imageUrl: (imageId) => `${api.url}/uploaded-images/${encodeURIComponent(imageId)}/file`,
    getPricePreview: async (eventId, { email, codes }) => {
      const query = new URLSearchParams();
      if (email.trim()) query.set("email", email.trim());
      if (codes.length > 0) query.set("codes", codes.join(","));
      const path = `/events/${encodeURIComponent(eventId)}/price-preview?${query}`;
      return { data: (await api.call<PricePreviewRow[]>(path)).json };
    },
    register: (registration) => post<Detail>("/auth/register", registration, true),
    verifyRegistration: (userIdB64, hash) => post<Detail>("/auth/register/verify", { userIdB64, hash }, true),
    requestPasswordReset: (email) => post<Detail>("/auth/password-reset-request", { email }, true),
    resetPassword: (reset) => post<Detail>("/auth/password-reset", reset, true),
    changePassword: async (change) => {
      // The API ends every session of the account, this one's access token included, and answers new tokens.
      const { detail, accessToken, refreshToken } = (await post<Detail & Tokens>("/auth/password-change", change)).data;
      api.keepTokens({ accessToken, refreshToken });
      return { data: { detail } };
    },
    getMe: async () => ({ data: (await api.call<Me>("/users/me")).json }),
    updateMe: async (names) => ({ data: (await api.call<Me>("/users/me", { method: "PUT", body: names })).json }),
    getConfig: async () => ({
      data: (await api.call<{ supportEmail: string }>("/config", { anonymous: true })).json,
    }),
    downloadInvoicePdf: async (invoiceId, language) => {
      const { blob, fileName } = await api.download(
        `/invoices/${encodeURIComponent(invoiceId)}/pdf?language=${language}`,
      );
      return { data: { blob, fileName: fileName ?? `invoice-${invoiceId}.pdf` } };
    },
    requestModeration: (eventId) => post<RaRecord>(eventPath(eventId, "request")),
    approveModeration: (eventId) => post<RaRecord>(eventPath(eventId, "approve")),
    requestModerationChanges: (eventId, description) =>
      post<RaRecord>(eventPath(eventId, "request-changes"), { description }),
    setUnitStripe: async (unitId, settings) => ({
      data: (await api.call<Unit>(`/units/${encodeURIComponent(unitId)}/stripe`, { method: "PUT", body: settings }))
        .json,
    }),
    removeUnitStripe: async (unitId) => ({
      data: (await api.call<Unit>(`/units/${encodeURIComponent(unitId)}/stripe`, { method: "DELETE" })).json,
    }),
    unitWebhooks: async <T>(unitId: Identifier, path: string, request?: ApiRequest) => ({
      data: (await api.call<T>(`/units/${encodeURIComponent(unitId)}/webhooks${path}`, request)).json,
    }),
    refundBasket: (basketId, refund) => post<RefundMade>(`/baskets/${encodeURIComponent(basketId)}/refunds`, refund),
    getEventStocks: async (eventId, preview) => ({
      data: (await api.call<StocksTable>(`/events/${encodeURIComponent(eventId)}/stocks?preview=${preview}`)).json,
    }),
    getEventDashboard: async (eventId, preview) => ({
      data: (await api.call<Dashboard>(`/events/${encodeURIComponent(eventId)}/dashboard?preview=${preview}`)).json,
    }),
    markInvoicePaid: (invoiceId) => post<InvoicePaid>(`/invoices/${encodeURIComponent(invoiceId)}/mark-paid`),
    resendConfirmation: (basketId) => post<BasketMail>(`/baskets/${encodeURIComponent(basketId)}/confirmation-mail`),
    downloadBasketTickets: async (basketId, language) => {
      const { blob, fileName } = await api.download(
        `/baskets/${encodeURIComponent(basketId)}/tickets?language=${language}`,
      );
      return { data: { blob, fileName: fileName ?? `tickets-${basketId}.pdf` } };
    },
    downloadExport: async (list, format, query) => {
      const { filter, sort } = wireQuery(query);
      const search = new URLSearchParams({ format, filter: JSON.stringify(filter) });
      if (sort) search.set("sort", JSON.stringify([sort.field, sort.order]));
      const { blob, fileName } = await api.download(`/exports/${encodeURIComponent(list)}?${search}`);
      return { data: { blob, fileName: fileName ?? `${list}.${format}` } };
    },
    checkIn: (eventId, scan) => post<CheckInResult>(`/events/${encodeURIComponent(eventId)}/check-ins`, scan),
    getCheckInCounts: async (eventId, preview) => ({
      data: (
        await api.call<CheckInCounts>(`/events/${encodeURIComponent(eventId)}/check-ins/counts?preview=${preview}`)
      ).json,
    }),
    getTicketPublicKey: async () => ({
      data: (
        await api.httpClient(`${api.url}/tickets/public-key`, {
          anonymous: true,
          headers: new Headers({ Accept: "application/x-pem-file" }),
        })
      ).body,
    }),
    getCheckInSnapshot: async (eventId, preview) => ({
      data: (
        await api.call<CheckInSnapshot>(`/events/${encodeURIComponent(eventId)}/check-ins/snapshot?preview=${preview}`)
      ).json,
    }),
    syncCheckIns: (eventId, sync) =>
      post<CheckInSyncResult>(`/events/${encodeURIComponent(eventId)}/check-ins/sync`, sync),
    getCheckInDoubles: async (eventId, preview) => ({
      data: (
        await api.call<CheckInDouble[]>(`/events/${encodeURIComponent(eventId)}/check-ins/doubles?preview=${preview}`)
      ).json,
    }),
    previewCommunicationMail: (eventId, { mail, language, values }) =>
      post<MailPreview>(`${communicationPath(eventId)}/mail-preview`, { ...values, mail, language }),
    previewCommunicationTicket: async (eventId, { language, values }) => ({
      data: (await api.download(`${communicationPath(eventId)}/pdf-ticket-preview`, { ...values, language })).blob,
    }),
    sendTestMail: (eventId, test) => post<TestMailSent>(`${communicationPath(eventId)}/test-mail`, test),
    getWaitingRoom: async (eventId) => {
      try {
        return { data: (await api.call<WaitingRoom>(waitingRoomPath(eventId))).json };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return { data: null };
        throw error;
      }
    },
    setWaitingRoom: async (eventId, settings) => ({
      data: (await api.call<WaitingRoom>(waitingRoomPath(eventId), { method: "PUT", body: settings })).json,
    }),
    actOnWaitingRoom: (eventId, action) => post<WaitingRoom>(`${waitingRoomPath(eventId)}/${action}`),
    getEventCancellation: async (eventId) => ({
      data: (await api.call<EventCancellation>(`/events/${encodeURIComponent(eventId)}/cancellation`)).json,
    }),
    cancelEvent: (eventId, request) =>
      post<EventCancellation>(`/events/${encodeURIComponent(eventId)}/cancellation`, request),
    retryCancellationRefunds: (eventId) =>
      post<EventCancellation>(`/events/${encodeURIComponent(eventId)}/cancellation/retry`),
    markRefundedByHand: (eventId, basketId) =>
      post<EventCancellation>(
        `/events/${encodeURIComponent(eventId)}/cancellation/baskets/${encodeURIComponent(basketId)}/refunded-by-hand`,
      ),
    getWaitingList: async (eventId, testing) => {
      try {
        return { data: (await api.call<WaitingList>(`${waitingListPath(eventId)}?testing=${testing}`)).json };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return { data: null };
        throw error;
      }
    },
    setWaitingList: async (eventId, settings) => ({
      data: (await api.call<WaitingList>(waitingListPath(eventId), { method: "PUT", body: settings })).json,
    }),
    getWaitingListEntries: async (eventId, { testing, state, page, perPage }) => {
      const query = new URLSearchParams({ testing: String(testing), page: String(page), per_page: String(perPage) });
      if (state) query.set("state", state);
      return (await api.call<WaitingListEntriesPage>(`${waitingListPath(eventId)}/entries?${query}`)).json;
    },
    offerWaitingListEntry: (eventId, entryId) => post<unknown>(`${waitingListEntryPath(eventId, entryId)}/offer`),
    removeWaitingListEntry: async (eventId, entryId) => ({
      data: (await api.call<unknown>(waitingListEntryPath(eventId, entryId), { method: "DELETE" })).json,
    }),
    getPersonalData: async (email) => ({
      data: (await api.call<PersonalData>(`/personal-data?${new URLSearchParams({ email })}`)).json,
    }),
    downloadPersonalData: async (email, format) => {
      const { blob, fileName } = await api.download(`/personal-data?${new URLSearchParams({ email, format })}`);
      return { data: { blob, fileName: fileName ?? `personal-data.${format}` } };
    },
    erasePersonalData: (email, confirmation) =>
      post<PersonalDataErased>("/personal-data/erasures", { email, confirmation }),
    getPersonalDataErasures: async (email) => ({
      data: (await api.call<PersonalDataErasure[]>(`/personal-data/erasures?${new URLSearchParams({ email })}`)).json,
    }),
  };
}
