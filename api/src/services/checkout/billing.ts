// A basket's billing information: what the buyer enters before paying, read back for the invoice.
import { type Database, type Db, eq, run, schema } from "@ticketing/db";
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

export async function saveBillingInformation(
  database: Database,
  basket: Basket,
  login: FrontendLogin,
  input: BillingInput,
) {
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  return database.transaction(function* (tx) {
    const row = yield* run(
      tx
        .insert(schema.billingInformation)
        .values({ ...input, createdById: login.id })
        .returning()
        .get(),
    );
    yield* run(
      tx.update(schema.baskets).set({ billingInformationId: row.id }).where(eq(schema.baskets.id, basket.id)).run(),
    );
    return row;
  });
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
