import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("language", "routes/language.ts"),
  route("legal/:document", "routes/legal.$document.tsx"),
  // DESIGN 5: the optional `preview` segment puts the ticket office into testing mode.
  route("tickets/preview?/:path", "routes/tickets.$path.tsx", [
    index("routes/tickets.$path._index.tsx"),
    route("login", "routes/tickets.$path.login.tsx"),
    route("login/verify/:loginPk/:token", "routes/tickets.$path.login.verify.$loginPk.$token.tsx"),
    route("login/third-party/:token", "routes/tickets.$path.login.third-party.$token.tsx"),
    route("buy", "routes/tickets.$path.buy.tsx"),
    route("checkout", "routes/tickets.$path.checkout.tsx", [
      index("routes/tickets.$path.checkout._index.ts"),
      route("forms", "routes/tickets.$path.checkout.forms.tsx"),
      route("billing-information", "routes/tickets.$path.checkout.billing-information.tsx"),
      route("payment-method", "routes/tickets.$path.checkout.payment-method.tsx"),
    ]),
    route("payment/return/:id/:status", "routes/tickets.$path.payment.return.$id.$status.tsx"),
    route("payment/pointofsale/:id", "routes/tickets.$path.payment.pointofsale.$id.tsx"),
    route("completion", "routes/tickets.$path.completion.tsx"),
    route("baskets/:basketId/tickets", "routes/tickets.$path.baskets.$basketId.tickets.ts"),
    route("baskets/:basketId/tickets/:itemId", "routes/tickets.$path.baskets.$basketId.tickets.$itemId.ts"),
    route("invoices/:invoiceId/pdf", "routes/tickets.$path.invoices.$invoiceId.pdf.ts"),
    // The confirmation mail's order link: the token is the key, no login.
    route("orders/:token", "routes/tickets.$path.orders.$token.tsx"),
    route("orders/:token/tickets", "routes/tickets.$path.orders.$token.tickets.ts"),
    route("orders/:token/tickets/:itemId", "routes/tickets.$path.orders.$token.tickets.$itemId.ts"),
    route("orders/:token/invoices/:invoiceId/pdf", "routes/tickets.$path.orders.$token.invoices.$invoiceId.pdf.ts"),
  ]),
  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
