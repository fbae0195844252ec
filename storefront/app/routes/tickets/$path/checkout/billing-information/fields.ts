import type { BillingInformation } from "@ticketing/shared/schemas/ticket-office";

export const FIELDS = [
  { name: "firstName", autoComplete: "given-name", type: "text" },
  { name: "lastName", autoComplete: "family-name", type: "text" },
  { name: "email", autoComplete: "email", type: "email" },
  { name: "address", autoComplete: "street-address", type: "text" },
  { name: "postalCode", autoComplete: "postal-code", type: "text" },
  { name: "city", autoComplete: "address-level2", type: "text" },
  { name: "country", autoComplete: "country-name", type: "text" },
] as const satisfies readonly { name: keyof BillingInformation; autoComplete: string; type: string }[];

export type FieldName = (typeof FIELDS)[number]["name"];
