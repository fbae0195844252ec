// First: before any module that builds a zod schema.
import "./zodWithoutEval.ts";
import createCache from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
// The server's Content-Security-Policy allows only the styles carrying this page's nonce (docs/decisions/0007):
// MUI's styles are emotion's `<style>` tags, given it here. `npm run dev -w admin` has neither policy nor nonce.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content || undefined;
const styleCache = createCache({ key: "css", nonce });
createRoot(container).render(
  <StrictMode>
    <CacheProvider value={styleCache}>
      <App />
    </CacheProvider>
  </StrictMode>,
);
