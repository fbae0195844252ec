import { useTranslation } from "react-i18next";
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

export default function LegalDocument({ loaderData: { document } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const title = t(`legal.${document}.title`);
  return (
    <article className="prose">
      <title>{title}</title>
      <h1>{title}</h1>
      {t(`legal.${document}.body`)
        .split("\n\n")
        .map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
    </article>
  );
}
