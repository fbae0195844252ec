import { useTranslation } from "react-i18next";
import type { Route } from "./+types/route";

export { loader } from "./route.server";

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
