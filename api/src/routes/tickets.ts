// Ticket codes: the QR code of each PDF ticket carries a code signed with Ed25519, checkable offline with
// the public key, or here.

import { and, eq, schema } from "@ticketing/db";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { DomainError } from "../lib/errors.ts";
import { answer, readQuery } from "../lib/http.ts";
import { verifyTicketCode } from "../services/ticket-codes.ts";

export const ticketRoutes = new Hono<AppEnv>();

ticketRoutes.get("/verify", async (c) => {
  const { code } = readQuery(c, z.object({ code: z.string().min(1).max(2_000) }));
  const { database, ticketKeys } = c.get("deps");
  const claims = verifyTicketCode(ticketKeys, code);
  if (!claims) throw new DomainError("invalid", ["errors.ticket_code_invalid"]);
  const row = await database.db
    .select({ item: schema.selectedNodes, basket: schema.baskets })
    .from(schema.selectedNodes)
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.selectedNodes.basketId))
    .where(and(eq(schema.selectedNodes.id, claims.itemId), eq(schema.baskets.id, claims.basketId)))
    .get();
  const isValid = row?.basket.status === "validated" && row.item.status === "held";
  return answer(c, {
    valid: isValid,
    ticket: {
      eventId: claims.eventId,
      basketId: claims.basketId,
      itemId: claims.itemId,
      title: row?.item.title ?? null,
      status: row?.basket.status ?? null,
      testing: row?.basket.testing ?? null,
    },
  });
});

ticketRoutes.get("/public-key", (c) =>
  c.text(c.get("deps").ticketKeys.publicKeyPem, 200, { "Content-Type": "application/x-pem-file" }),
);
