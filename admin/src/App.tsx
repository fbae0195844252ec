import { Admin, Resource, reactRouterProvider } from "react-admin";
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

export const App = () => (
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
