// The nonce of the page's Content-Security-Policy (docs/decisions/0007): the product server makes one per request
// and passes it in the load context; entry.server.tsx hands it to the render, root.tsx to the inline script.
import { createContext, useContext } from "react";

declare module "react-router" {
  interface AppLoadContext {
    /** Set by the product server (api/src/product.ts); absent when nothing sends a policy with a nonce. */
    cspNonce?: string;
  }
}

export const CspNonceContext = createContext<string | undefined>(undefined);

export const useCspNonce = () => useContext(CspNonceContext);
