import { Admin, Resource, reactRouterProvider } from "react-admin";
import { createBrowserRouter, Navigate, RouterProvider } from "react-router";
import { createAuthProvider, createSession } from "./authProvider.ts";
import { createApiClient, createDataProvider } from "./dataProvider.ts";
import events from "./events/index.ts";
import { EventBasketList } from "./events/sales/EventBasketList.tsx";
import { createI18nProvider, currentLanguage } from "./i18nProvider.ts";
import { Layout } from "./layout/Layout.tsx";
import { LoginPage } from "./layout/LoginPage.tsx";

const { Route } = reactRouterProvider;

const language = currentLanguage();
document.documentElement.lang = language;

const session = createSession(window.localStorage);
const api = createApiClient({ url: import.meta.env.VITE_API_URL ?? "/api/v1", session, getLanguage: () => language });
const dataProvider = createDataProvider(api);
const authProvider = createAuthProvider({ api, session });
const i18nProvider = createI18nProvider(language);

const BackOffice = () => (
  <Admin
    basename="/admin"
    title="admin.title"
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    loginPage={LoginPage}
    layout={Layout}
    requireAuth
    disableTelemetry
  >
    <Resource name="events" {...events}>
      <Route path=":id/baskets" element={<EventBasketList />} />
    </Resource>
    <Resource name="units" recordRepresentation="name" />
    <Resource name="baskets" />
  </Admin>
);

// react-admin's own router is a hash router; the back office has real paths under /admin (the server
// falls back to index.html there), hence a browser router and <Admin basename> (react-admin's sub-path setup).
const router = createBrowserRouter([
  { path: "/admin/*", element: <BackOffice /> },
  { path: "*", element: <Navigate to="/admin" replace /> },
]);

export const App = () => <RouterProvider router={router} />;
