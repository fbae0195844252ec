import { Admin, CustomRoutes, Resource, reactRouterProvider } from "react-admin";
import { createBrowserRouter, Navigate, RouterProvider } from "react-router";
import { PasswordResetPage } from "./auth/PasswordResetPage.tsx";
import { PasswordResetRequestPage } from "./auth/PasswordResetRequestPage.tsx";
import { RegisterPage } from "./auth/RegisterPage.tsx";
import { VerifyPage } from "./auth/VerifyPage.tsx";
import { BASENAME, createAuthProvider, createSession } from "./authProvider.ts";
import { createApiClient, createDataProvider } from "./dataProvider.ts";
import { EventRedirect } from "./events/EventRedirect.tsx";
import events from "./events/index.ts";
import { createI18nProvider, currentLanguage } from "./i18nProvider.ts";
import { PageNotFound, UnexpectedErrorPage } from "./layout/ErrorPages.tsx";
import { Layout } from "./layout/Layout.tsx";
import { LoginPage } from "./layout/LoginPage.tsx";
import { createPreferenceStore } from "./layout/preferences.ts";
import { lazyScreen } from "./lazyScreen.ts";
import { darkTheme, lightTheme } from "./theme.ts";
import units from "./units/index.ts";
import { ToastNotifications } from "./widgets/Toasts.tsx";

const { Route } = reactRouterProvider;

// Every screen behind the sign-in is fetched when it first shows (lazyScreen); the sign-in pages are not.
const PasswordChangePage = lazyScreen(() => import("./auth/PasswordChangePage.tsx"), "PasswordChangePage");
const EventEdit = lazyScreen(() => import("./events/EventEdit.tsx"), "EventEdit");
const BasketShow = lazyScreen(() => import("./events/sales/BasketShow.tsx"), "BasketShow");
const EventBasketList = lazyScreen(() => import("./events/sales/EventBasketList.tsx"), "EventBasketList");
const EventDashboard = lazyScreen(() => import("./events/sales/EventDashboard.tsx"), "EventDashboard");
const EventInvoiceList = lazyScreen(() => import("./events/sales/EventInvoiceList.tsx"), "EventInvoiceList");
const InvoiceShow = lazyScreen(() => import("./events/sales/InvoiceShow.tsx"), "InvoiceShow");
const StocksTablePage = lazyScreen(() => import("./events/sales/StocksTablePage.tsx"), "StocksTablePage");
const AuthSettings = lazyScreen(() => import("./events/settings/AuthSettings.tsx"), "AuthSettings");
const DatesSettings = lazyScreen(() => import("./events/settings/DatesSettings.tsx"), "DatesSettings");
const PaymentSettings = lazyScreen(() => import("./events/settings/PaymentSettings.tsx"), "PaymentSettings");
const StatusSettings = lazyScreen(() => import("./events/settings/StatusSettings.tsx"), "StatusSettings");
const CheckInPage = lazyScreen(() => import("./events/check-in/CheckInPage.tsx"), "CheckInPage");
const CheckInList = lazyScreen(() => import("./events/check-in/CheckInList.tsx"), "CheckInList");
const WaitingRoomPage = lazyScreen(() => import("./events/waiting-room/WaitingRoomPage.tsx"), "WaitingRoomPage");
const WaitingListPage = lazyScreen(() => import("./events/waiting-list/WaitingListPage.tsx"), "WaitingListPage");
const MePage = lazyScreen(() => import("./users/MePage.tsx"), "MePage");
const PersonalDataPage = lazyScreen(() => import("./personal-data/PersonalDataPage.tsx"), "PersonalDataPage");
const InputsDemo = lazyScreen(() => import("./demo/InputsDemo.tsx"), "InputsDemo");
const ButtonsDemo = lazyScreen(() => import("./demo/ButtonsDemo.tsx"), "ButtonsDemo");
const communication = () => import("./events/communication/CommunicationPages.tsx");
const GeneralCommunication = lazyScreen(communication, "GeneralCommunication");
const OrderConfirmationCommunication = lazyScreen(communication, "OrderConfirmationCommunication");
const PaymentReminderCommunication = lazyScreen(communication, "PaymentReminderCommunication");
const ConfirmationPageCommunication = lazyScreen(communication, "ConfirmationPageCommunication");
const PdfTicketCommunication = lazyScreen(communication, "PdfTicketCommunication");

const language = currentLanguage();
document.documentElement.lang = language;

const session = createSession(window.localStorage);
const api = createApiClient({ url: import.meta.env.VITE_API_URL ?? "/api/v1", session, getLanguage: () => language });
const dataProvider = createDataProvider(api);
const authProvider = createAuthProvider({ api, session });
const i18nProvider = createI18nProvider(language);
const store = createPreferenceStore(window.localStorage);
// The language is fixed until the next load (switchLanguage reloads): the spinners' name is too.
const loadingLabel = i18nProvider.translate("ra.page.loading");

const BackOffice = () => (
  <Admin
    basename={BASENAME}
    title="admin.title"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    store={store}
    // No defaultTheme: the system preference decides until the app bar's toggle is used (docs/specification.md §4).
    // docs/accessibility.md: react-admin's themes with a palette that meets WCAG 2.2 AA's contrast.
    lightTheme={lightTheme(loadingLabel)}
    darkTheme={darkTheme(loadingLabel)}
    loginPage={LoginPage}
    layout={Layout}
    notification={ToastNotifications}
    catchAll={PageNotFound}
    error={UnexpectedErrorPage}
    requireAuth
    disableTelemetry
  >
    {/* docs/specification.md §2.2 / §6: reachable without a session (react-admin's own /login stays too). */}
    <CustomRoutes noLayout>
      <Route path="/auth/login" element={<LoginPage />} />
      <Route path="/auth/register" element={<RegisterPage />} />
      <Route path="/auth/register/verify/:userIdB64/:hash" element={<VerifyPage />} />
      <Route path="/auth/password-reset-request" element={<PasswordResetRequestPage />} />
      <Route path="/auth/password-reset-request/:userIdB64/:passwordResetTokenB64" element={<PasswordResetPage />} />
    </CustomRoutes>
    <CustomRoutes>
      <Route path="/auth/password-change" element={<PasswordChangePage />} />
      <Route path="/users/me" element={<MePage />} />
      {/* docs/decisions/0046: a buyer's personal data, for owners and superusers (the API's own guard). */}
      <Route path="/personal-data" element={<PersonalDataPage />} />
      {/* docs/specification.md §2.1: the widgets' demo, for superusers (the pages' own guard). */}
      <Route path="/demo/inputs" element={<InputsDemo />} />
      <Route path="/demo/buttons/:path" element={<ButtonsDemo />} />
    </CustomRoutes>
    {/* docs/specification.md §2.2: an event's pages, each its own route; any other path under an event is the
        404 page. */}
    <Resource name="events" {...events}>
      <Route path=":id" element={<EventRedirect to="edit" />} />
      <Route path=":id/edit" element={<EventEdit />} />
      <Route path=":id/settings" element={<EventRedirect to="status" />} />
      <Route path=":id/settings/status" element={<StatusSettings />} />
      <Route path=":id/settings/dates" element={<DatesSettings />} />
      <Route path=":id/settings/auth" element={<AuthSettings />} />
      <Route path=":id/settings/payment" element={<PaymentSettings />} />
      <Route path=":id/baskets" element={<EventBasketList />} />
      <Route path=":id/dashboard" element={<EventDashboard />} />
      <Route path=":id/stocks-table" element={<StocksTablePage />} />
      <Route path=":id/invoices" element={<EventInvoiceList />} />
      <Route path=":id/baskets/:basketId/invoices/:invoiceId" element={<InvoiceShow />} />
      <Route path=":id/baskets/:basketId" element={<BasketShow />} />
      <Route path=":id/check-in" element={<CheckInPage />} />
      <Route path=":id/check-ins" element={<CheckInList />} />
      <Route path=":id/waiting-room" element={<WaitingRoomPage />} />
      <Route path=":id/waiting-list" element={<WaitingListPage />} />
      <Route path=":id/communication" element={<EventRedirect to="general" />} />
      <Route path=":id/communication/general" element={<GeneralCommunication />} />
      <Route path=":id/communication/order-confirmation" element={<OrderConfirmationCommunication />} />
      <Route path=":id/communication/payment-reminder" element={<PaymentReminderCommunication />} />
      <Route path=":id/communication/order-confirmation-page" element={<ConfirmationPageCommunication />} />
      <Route path=":id/communication/pdf-ticket" element={<PdfTicketCommunication />} />
      <Route path=":id/*" element={<PageNotFound />} />
    </Resource>
    <Resource name="units" {...units} />
    <Resource name="memberships" />
    <Resource name="baskets" />
    <Resource name="invoices" />
  </Admin>
);

// react-admin's own router is a hash router; the back office has real paths under /admin (the server
// falls back to index.html there), hence a browser router and <Admin basename> (react-admin's sub-path setup).
const router = createBrowserRouter([
  { path: `${BASENAME}/*`, element: <BackOffice /> },
  { path: "*", element: <Navigate to={BASENAME} replace /> },
]);

// No transitions: react-admin's logout navigates to the login page and clears its query cache at once; inside a
// transition the navigation kept losing to the cache's urgent re-render, which mounted the signed-out catch-all
// (LogoutOnMount) again at the old location, so /admin navigated to the login page hundreds of times a second.
// react-admin's own router turns transitions off the same way (v7_startTransition: false).
export const App = () => <RouterProvider router={router} useTransitions={false} />;
