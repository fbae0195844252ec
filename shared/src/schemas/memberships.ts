// Memberships (issue 3): who belongs to a unit, as a member or as one of its owners.
import { z } from "zod";
import { Id, IsoDate, zId } from "./common.ts";
import { UnitRole } from "./units.ts";
import { User } from "./users.ts";

/** Adds the person who has an account under `email` to the unit. */
export const MembershipCreate = z.strictObject({
  unitId: zId,
  email: z.email().max(254),
  role: UnitRole.default("member"),
});
export type MembershipCreate = z.output<typeof MembershipCreate>;

/** Only the role changes; the admin's read-only fields are accepted and ignored. */
export const MembershipUpdate = z
  .strictObject({
    role: UnitRole,
    id: z.unknown(),
    unitId: z.unknown(),
    userId: z.unknown(),
    user: z.unknown(),
    createdAt: z.unknown(),
  })
  .partial();
export type MembershipUpdate = z.output<typeof MembershipUpdate>;

export const Membership = z.object({
  id: Id,
  unitId: Id,
  userId: Id,
  role: UnitRole,
  createdAt: IsoDate,
  user: User.pick({ id: true, email: true, firstName: true, lastName: true }),
});
export type Membership = z.infer<typeof Membership>;
