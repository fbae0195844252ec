// Ticket codes: the QR code of each PDF ticket carries a code signed with Ed25519, checkable offline with
// the public key, or here.
import { TicketCodeQuery } from "@ticketing/shared/schemas/frontend";
import { TicketVerification } from "@ticketing/shared/schemas/ticket-office";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { checkTicketCode } from "../services/tickets/tickets.ts";

export const ticketRoutes = new Hono<AppEnv>();

ticketRoutes.get(
  "/verify",
  route(
    { summary: "Whether a ticket's signed code is good for entry", query: TicketCodeQuery, answer: TicketVerification },
    async (c, { query }) => {
      const { database, ticketKeys } = c.get("deps");
      return answer(c, await checkTicketCode(database, ticketKeys, query.code));
    },
  ),
);

ticketRoutes.get(
  "/public-key",
  route({ summary: "The public key that checks ticket codes offline (PEM)", produces: "application/x-pem-file" }, (c) =>
    c.text(c.get("deps").ticketKeys.publicKeyPem, 200, { "Content-Type": "application/x-pem-file" }),
  ),
);
