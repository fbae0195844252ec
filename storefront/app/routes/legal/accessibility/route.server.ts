import type { SiteConfig } from "@ticketing/shared/schemas/common";
import type { z } from "zod";
import { getLanguage } from "#app/i18n.server.ts";
import { createApiClient } from "#app/lib/api.server.ts";
import type { Route } from "./+types/route";

/** The statement's text is the product's (storefront.json `legal.accessibility`); whom to write to is the instance's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const api = createApiClient({ context, locale: await getLanguage(request) });
  const { supportEmail } = await api.get<z.infer<typeof SiteConfig>>("/config");
  return { supportEmail };
}
