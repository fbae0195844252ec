import type { PublicInfos } from "@ticketing/shared/schemas/events";
import { getLanguage } from "#app/i18n.server.ts";
import { createApiClient } from "#app/lib/api.server.ts";
import type { Route } from "./+types/route";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = createApiClient({ context, locale: await getLanguage(request) });
  const events = await api.get<PublicInfos[]>("/events/public-infos");
  return { events };
}
