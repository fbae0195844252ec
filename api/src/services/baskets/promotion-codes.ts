// Promotion codes a buyer applies to a basket (docs/specification.md §4): a code of the basket's event, named in any
// case, once per basket; applying or removing one prices the basket's lines again.
import { and, type Database, type Db, eq, run, schema, sql } from "@ticketing/db";
import type { SelectedPromotionCodeCreate } from "@ticketing/shared/schemas/frontend";
import type {
  AppliedPromotionCode,
  RemovedSelection,
  SelectedPromotionCode,
} from "@ticketing/shared/schemas/ticket-office";
import { conflict, invalid } from "../../lib/errors.ts";
import { activePromotionCodes, repriceBasket } from "./basket-content.ts";
import { findOwnedBasket } from "./baskets.ts";
import { findBuyerBasket, findBuyerLine } from "./buyer-baskets.ts";
import { assertBasketActionsAllowed } from "./holds.ts";

/** The codes applied to the caller's basket, in the order they were applied. */
export async function listSelectedPromotionCodes(
  db: Db,
  loginIds: number[],
  basketId: number,
): Promise<SelectedPromotionCode[]> {
  const basket = await findOwnedBasket(db, loginIds, basketId);
  return activePromotionCodes(db, basket.id);
}

/** Applies the event's code of that value (any case) to the caller's `new` basket, once. */
export async function applyPromotionCode(
  database: Database,
  input: { loginIds: number[]; body: SelectedPromotionCodeCreate; now: Date },
): Promise<AppliedPromotionCode> {
  const { body } = input;
  const { basket, event, login } = await findBuyerBasket(database.db, input.loginIds, body.basketId);
  assertBasketActionsAllowed(event, basket.testing, input.now);
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  const code = await database.db
    .select()
    .from(schema.promotionCodes)
    .where(
      and(
        eq(schema.promotionCodes.eventId, event.id),
        sql`lower(${schema.promotionCodes.value}) = lower(${body.value})`,
      ),
    )
    .get();
  if (!code) throw invalid("errors.promotion_code_invalid", { value: "errors.promotion_code_invalid" });
  const created = await database.transaction(function* (tx) {
    const existing = yield* run(
      tx
        .select()
        .from(schema.selectedPromotionCodes)
        .where(
          and(
            eq(schema.selectedPromotionCodes.basketId, basket.id),
            eq(schema.selectedPromotionCodes.promotionCodeId, code.id),
          ),
        )
        .get(),
    );
    if (existing) throw conflict("errors.promotion_code_active");
    return yield* run(
      tx
        .insert(schema.selectedPromotionCodes)
        .values({ basketId: basket.id, promotionCodeId: code.id })
        .returning()
        .get(),
    );
  });
  await repriceBasket(database, { event, basket, login });
  return { id: created.id, basketId: basket.id, name: code.name, value: code.value };
}

/** Takes a code off the caller's `new` basket. */
export async function removePromotionCode(
  database: Database,
  input: { loginIds: number[]; id: number },
): Promise<RemovedSelection> {
  const { row, basket, event, login } = await findBuyerLine(
    database.db,
    schema.selectedPromotionCodes,
    input.loginIds,
    input.id,
  );
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  await database.transaction(function* (tx) {
    yield* run(tx.delete(schema.selectedPromotionCodes).where(eq(schema.selectedPromotionCodes.id, row.id)).run());
  });
  await repriceBasket(database, { event, basket, login });
  return { id: row.id, basketId: basket.id };
}
