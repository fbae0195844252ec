// Back-office users: the signed-in user (`/users/me`, `/auth/me`) and the people they share a unit with.
import { z } from "zod";
import { Id } from "./common.ts";

export const User = z.object({
  id: Id,
  email: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  isActive: z.boolean(),
  isSuperuser: z.boolean(),
  personalUnitId: Id.nullable(),
});
export type User = z.infer<typeof User>;

/** The admin's form sends the record back: read-only fields are accepted and ignored. */
export const UserUpdate = z
  .strictObject({
    firstName: z.string().trim().max(100),
    lastName: z.string().trim().max(100),
    id: z.unknown(),
    email: z.unknown(),
    username: z.unknown(),
    isActive: z.unknown(),
    isSuperuser: z.unknown(),
    personalUnitId: z.unknown(),
  })
  .partial();
export type UserUpdate = z.output<typeof UserUpdate>;
