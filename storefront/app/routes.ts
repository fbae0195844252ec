import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/route.tsx"),
  route("language", "routes/language/route.ts"),
  // Before legal/:document, which it outranks anyway: a statement with headings, lists and the instance's contact.
  route("legal/accessibility", "routes/legal/accessibility/route.tsx"),
  route("legal/:document", "routes/legal/$document/route.tsx"),
  // docs/design.md §5: the optional `preview` segment puts the ticket office into testing mode.
  route("tickets/preview?/:path", "routes/tickets/$path/layout.tsx", [
    index("routes/tickets/$path/route.tsx"),
    route("login", "routes/tickets/$path/login/route.tsx"),
    route("login/verify/:loginPk/:token", "routes/tickets/$path/login/verify/$loginPk/$token/route.tsx"),
    route("login/third-party/:token", "routes/tickets/$path/login/third-party/$token/route.tsx"),
    route("buy", "routes/tickets/$path/buy/route.tsx"),
    route("waiting-room", "routes/tickets/$path/waiting-room/route.tsx"),
    route("waiting-list", "routes/tickets/$path/waiting-list/route.tsx"),
    // The offer mail's link: the code in its query is the key, no login.
    route("waiting-list/offers/:id", "routes/tickets/$path/waiting-list/offers/$id/route.tsx"),
    route("checkout", "routes/tickets/$path/checkout/layout.tsx", [
      index("routes/tickets/$path/checkout/route.ts"),
      route("forms", "routes/tickets/$path/checkout/forms/route.tsx"),
      route("billing-information", "routes/tickets/$path/checkout/billing-information/route.tsx"),
      route("payment-method", "routes/tickets/$path/checkout/payment-method/route.tsx"),
    ]),
    route("payment/return/:id/:status", "routes/tickets/$path/payment/return/$id/$status/route.tsx"),
    route("payment/pointofsale/:id", "routes/tickets/$path/payment/pointofsale/$id/route.tsx"),
    route("completion", "routes/tickets/$path/completion/route.tsx"),
    route("baskets/:basketId/tickets", "routes/tickets/$path/baskets/$basketId/tickets/route.ts"),
    route("baskets/:basketId/tickets/:itemId", "routes/tickets/$path/baskets/$basketId/tickets/$itemId/route.ts"),
    route("invoices/:invoiceId/pdf", "routes/tickets/$path/invoices/$invoiceId/pdf/route.ts"),
    // The confirmation mail's order link: the token is the key, no login.
    route("orders/:token", "routes/tickets/$path/orders/$token/route.tsx"),
    route("orders/:token/tickets", "routes/tickets/$path/orders/$token/tickets/route.ts"),
    route("orders/:token/tickets/:itemId", "routes/tickets/$path/orders/$token/tickets/$itemId/route.ts"),
    route(
      "orders/:token/invoices/:invoiceId/pdf",
      "routes/tickets/$path/orders/$token/invoices/$invoiceId/pdf/route.ts",
    ),
  ]),
  route("*", "routes/$/route.tsx"),
] satisfies RouteConfig;
