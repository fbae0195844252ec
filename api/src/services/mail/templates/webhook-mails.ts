// The mail to a unit's owners when one of its webhook endpoints is switched off after days of failures
// (docs/decisions/0045-webhooks.md). Staff accounts have no language of their own: the mail says it in its
// language first, then in the other one.
import { type Database, eq, schema } from "@ticketing/db";
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { htmlPage, type MailTemplateContext, mailTranslator, paragraphs, type RenderedMail } from "./layout.ts";

async function loadEndpoint(database: Database, endpointId: number) {
  const row = await database.db
    .select({ endpoint: schema.webhookEndpoints, unitName: schema.units.name })
    .from(schema.webhookEndpoints)
    .innerJoin(schema.units, eq(schema.units.id, schema.webhookEndpoints.unitId))
    .where(eq(schema.webhookEndpoints.id, endpointId))
    .get();
  if (!row) throw new Error(`webhook endpoint ${endpointId} not found`);
  return row;
}

export async function renderWebhookDisabledMail(
  context: MailTemplateContext,
  t: Translate,
  language: Language,
  payload: { endpoint_id: number },
): Promise<RenderedMail> {
  const { endpoint, unitName } = await loadEndpoint(context.database, payload.endpoint_id);
  const since = endpoint.failingSince ?? endpoint.disabledAt ?? "";
  const other = LANGUAGES.find((each) => each !== language) ?? language;
  const parts = [t, mailTranslator(other)].map((translate) => {
    const values = { url: endpoint.url, unit: unitName, since: since.slice(0, 16).replace("T", " ") };
    return [
      translate("webhook_disabled.body", values),
      translate("webhook_disabled.action"),
      translate("webhook_disabled.signature"),
    ];
  });
  const subject = `${t("webhook_disabled.subject", { url: endpoint.url })}`;
  return {
    subject,
    text: parts.map((blocks) => blocks.join("\n\n")).join("\n\n———\n\n"),
    html: htmlPage(
      language,
      parts.flatMap((blocks, index) => [...(index > 0 ? ["<hr>"] : []), ...blocks.map((block) => paragraphs(block))]),
    ),
    attachments: [],
  };
}
