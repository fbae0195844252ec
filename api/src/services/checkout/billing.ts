// A basket's billing information: what the buyer enters before paying, read back for the invoice.
import { type Database, type Db, eq, rowOf, schema } from "@ticketing/db";
import { conflict } from "../../lib/errors.ts";
import type { Basket, FrontendLogin } from "../baskets/baskets.ts";

export interface BillingInput {
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
}

/**
 * Writes the billing information and points the basket at it, in one batch (a write transaction in one round trip,
 * docs/decisions/0026) guarded by the basket still being `new`: a basket checked out meanwhile gets none (409).
 */
export async function saveBillingInformation(
  database: Database,
  basket: Basket,
  login: FrontendLogin,
  input: BillingInput,
) {
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  const [inserted] = await database.batch([
    {
      sql: `insert into billing_information
          (first_name, last_name, email, address, postal_code, city, country, created_by_id)
        select ?, ?, ?, ?, ?, ?, ?, ? where exists (select 1 from baskets where id = ? and status = 'new')
        returning *`,
      args: [
        input.firstName,
        input.lastName,
        input.email,
        input.address,
        input.postalCode,
        input.city,
        input.country,
        login.id,
        basket.id,
      ],
    },
    // The row just inserted, on this connection; nothing when the guard refused.
    {
      sql: "update baskets set billing_information_id = last_insert_rowid() where id = ? and changes() = 1",
      args: [basket.id],
    },
  ]);
  const row = inserted?.[0];
  if (!row) throw conflict("errors.basket_not_modifiable");
  return rowOf(schema.billingInformation, row);
}

export async function billingInformationOf(db: Db, basket: Basket) {
  if (!basket.billingInformationId) return null;
  return (
    (await db
      .select()
      .from(schema.billingInformation)
      .where(eq(schema.billingInformation.id, basket.billingInformationId))
      .get()) ?? null
  );
}
