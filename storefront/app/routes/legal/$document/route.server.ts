import { data } from "react-router";
import type { Route } from "./+types/route";

const DOCUMENTS = {
  imprint: "imprint",
  "privacy-policy": "privacyPolicy",
  "terms-of-service": "termsOfService",
} as const;

export function loader({ params }: Route.LoaderArgs) {
  if (!Object.hasOwn(DOCUMENTS, params.document)) throw data(null, { status: 404 });
  return { document: DOCUMENTS[params.document as keyof typeof DOCUMENTS] };
}
