// Beside a communication form: the mail, the PDF ticket or the confirmation page as buyers will get them, from the form's unsaved values
// and a sample order of the event, in the language chosen; a mail page can send the saved mail to oneself.
import SendIcon from "@mui/icons-material/Send";
import { Alert, Box, Paper, ToggleButton, ToggleButtonGroup, Typography } from "@mui/material";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { createTranslator } from "@ticketing/shared/i18n/translate";
import {
  type Communication,
  type CommunicationMail,
  communicationText,
  type Event,
  fillPlaceholders,
  type MailPreview,
} from "@ticketing/shared/schemas/events";
import { type ReactNode, useEffect, useState } from "react";
import { Button, useDataProvider, useGetOne, useNotify, useParams, useRecordContext, useTranslate } from "react-admin";
import storefrontEn from "../../../../shared/src/i18n/en/storefront.json";
import storefrontFr from "../../../../shared/src/i18n/fr/storefront.json";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import type { PreviewOf } from "./communicationPages.ts";
import { useDebouncedValue } from "./useDebouncedValue.ts";

const PREVIEW_DELAY_MS = 400;

/** The form's values as they stand (unsaved), which a preview shows. */
interface PreviewProps {
  values: Partial<Communication>;
}

type Changes = Partial<Communication>;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The texts the form changed from the saved ones: what a preview sends, the API reading the saved texts for the
 * others. None when the page opens, so that its preview can be asked for with the page's own data (usePrefetch).
 */
function changesOf(values: Changes, saved: Changes | undefined): Changes {
  return Object.fromEntries(
    Object.entries(values).filter(([field, value]) => value !== saved?.[field as keyof Communication]),
  );
}

/** The form's changes once typing pauses, as a stable key for the preview's query. */
function useSettledChanges(changes: Changes): Changes {
  return JSON.parse(useDebouncedValue(JSON.stringify(changes), PREVIEW_DELAY_MS));
}

const PREVIEWS_KEY = "communication-preview";

/** A preview's query: the mail (or the PDF ticket) of the sample order with `changes` over the saved texts. */
function previewQuery(
  dataProvider: TicketingDataProvider,
  eventId: string,
  of: PreviewOf,
  language: Language,
  changes: Changes,
) {
  return {
    queryKey: [PREVIEWS_KEY, eventId, of, language, changes],
    queryFn: async (): Promise<MailPreview | Blob> =>
      of === "pdf_ticket"
        ? (await dataProvider.previewCommunicationTicket(eventId, { language, values: changes })).data
        : (await dataProvider.previewCommunicationMail(eventId, { mail: of, language, values: changes })).data,
    retry: false,
  };
}

/**
 * Asks for the page's preview of the saved texts (in English, as the preview opens) as the page opens, beside its
 * own data rather than after it: the form, and its preview inside it, only appear once the saved texts are in, and
 * a preview asked for then came one more round trip later (the preview stayed blank that long beside the form).
 * What was asked for is dropped once the texts are saved, when "no changes" comes to mean other texts.
 */
export function usePreviewPrefetch(of: PreviewOf | undefined) {
  const { id } = useParams<{ id: string }>();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (of && id) void queryClient.prefetchQuery(previewQuery(dataProvider, id, of, "en", {}));
  }, [queryClient, dataProvider, id, of]);
  return () => queryClient.removeQueries({ queryKey: [PREVIEWS_KEY, id] });
}

/**
 * A preview of the form's settled changes in the language chosen (English first), the last one kept while the next
 * loads. The first is the page's prefetched one: the form opens with no changes.
 */
function usePreview<T extends MailPreview | Blob>(values: Changes, of: PreviewOf) {
  const { id } = useParams<{ id: string }>();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const saved = useRecordContext<Communication>();
  const [language, setLanguage] = useState<Language>("en");
  const settled = useSettledChanges(changesOf(values, saved));
  const preview = useQuery({
    ...previewQuery(dataProvider, id as string, of, language, settled),
    placeholderData: keepPreviousData,
    // The page's prefetch (usePreviewPrefetch) just asked for the opening preview: not a second time.
    refetchOnMount: false,
  });
  return { language, setLanguage, preview: preview as typeof preview & { data: T | undefined } };
}

const PreviewFrame = ({
  title,
  language,
  onLanguage,
  error,
  children,
}: {
  title: string;
  language: Language;
  onLanguage: (language: Language) => void;
  /** Why the preview could not be made (a placeholder the text may not use), shown above it. */
  error: unknown;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1 }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={language}
          onChange={(_, chosen: Language | null) => chosen && onLanguage(chosen)}
          aria-label={translate("admin.communication.previewLanguage")}
        >
          {LANGUAGES.map((option) => (
            <ToggleButton key={option} value={option}>
              {translate(`admin.languages.${option}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {error ? <Alert severity="warning">{translate(errorText(error), { _: errorText(error) })}</Alert> : null}
      {children}
    </Paper>
  );
};

/** The saved mail to the signed-in user's own address, through the outbox; a toast names the address. */
const TestMailButton = ({ mail, language }: { mail: CommunicationMail; language: Language }) => {
  const { id } = useParams<{ id: string }>();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const send = useMutation({
    mutationFn: () => dataProvider.sendTestMail(id as string, { mail, language }),
    onSuccess: ({ data }) =>
      notify("admin.communication.testMailSent", { type: "success", messageArgs: { to: data.to } }),
    onError: (error) => notify(errorText(error), { type: "error" }),
  });
  return (
    <Box>
      <Button
        label="admin.communication.sendTestMail"
        variant="outlined"
        onClick={() => send.mutate()}
        disabled={send.isPending}
      >
        <SendIcon />
      </Button>
      <Typography variant="caption" component="p" color="text.secondary">
        {translate("admin.communication.testMailHelp")}
      </Typography>
    </Box>
  );
};

/** The mail as it will be sent: its subject, and its HTML in a sandboxed frame (no script, no same origin). */
export const MailPreviewPanel = ({ mail, ...props }: PreviewProps & { mail: CommunicationMail }) => {
  const translate = useTranslate();
  const { language, setLanguage, preview } = usePreview<MailPreview>(props.values, mail);
  return (
    <PreviewFrame
      title={translate("admin.communication.mailPreview")}
      language={language}
      onLanguage={setLanguage}
      error={preview.error}
    >
      {preview.data && (
        <>
          <Typography variant="body2" data-testid="mail-preview-subject">
            <strong>{translate("admin.communication.subject")}</strong> {preview.data.subject}
          </Typography>
          <Box
            component="iframe"
            title={translate("admin.communication.mailPreview")}
            sandbox=""
            srcDoc={preview.data.html}
            sx={{ width: "100%", height: 520, border: 1, borderColor: "divider", bgcolor: "#fff" }}
          />
        </>
      )}
      <TestMailButton mail={mail} language={language} />
    </PreviewFrame>
  );
};

/** The PDF ticket of the sample order, as the browser's own PDF viewer shows it. */
export const TicketPreviewPanel = (props: PreviewProps) => {
  const translate = useTranslate();
  const { language, setLanguage, preview } = usePreview<Blob>(props.values, "pdf_ticket");
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!preview.data) return;
    const objectUrl = URL.createObjectURL(preview.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [preview.data]);
  return (
    <PreviewFrame
      title={translate("admin.communication.ticketPreview")}
      language={language}
      onLanguage={setLanguage}
      error={preview.error}
    >
      {url && (
        <Box
          component="iframe"
          title={translate("admin.communication.ticketPreview")}
          src={url}
          sx={{ width: "100%", height: 640, border: 1, borderColor: "divider" }}
        />
      )}
    </PreviewFrame>
  );
};

/** The ticket office's own words around the organiser's text (storefront's `completion.*`), in each language. */
const COMPLETION = { en: storefrontEn.completion, fr: storefrontFr.completion } as const;

/**
 * The confirmation page after an order, as a buyer of the language chosen reads it: the ticket office's thanks, then
 * the organiser's text in that language (else their other one: docs/decisions/0043) with the event's public name in
 * it, and the way on to the organiser's page. Made here from the form's values, as the ticket office makes it.
 */
export const ConfirmationPagePreviewPanel = ({ values }: PreviewProps) => {
  const translate = useTranslate();
  const { id } = useParams<{ id: string }>();
  const { data: event } = useGetOne<Event>("events", { id: Number(id) }, { enabled: id !== undefined });
  const [language, setLanguage] = useState<Language>("en");
  const words = createTranslator({ en: { completion: COMPLETION.en }, fr: { completion: COMPLETION.fr } }, language);
  const eventTitle = inLanguage(event?.frontendTitle, event?.frontendTitleFr, language);
  const text = communicationText(values, "confirmationPageText", language);
  const redirectUrl = values.confirmationRedirectUrl?.startsWith("https://") ? values.confirmationRedirectUrl : null;
  return (
    <PreviewFrame
      title={translate("admin.communication.confirmationPagePreview")}
      language={language}
      onLanguage={setLanguage}
      error={null}
    >
      <Box lang={language} sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 2 }}>
        <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
          {words("completion.title")}
        </Typography>
        <Typography>{words("completion.text", { event: eventTitle })}</Typography>
        {text?.split(/\n{2,}/).map((paragraph, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the text's paragraphs in order
          <Typography key={index} sx={{ mt: 1, whiteSpace: "pre-line" }} data-testid="confirmation-preview-text">
            {fillPlaceholders(paragraph, { event: eventTitle })}
          </Typography>
        ))}
        <Typography sx={{ mt: 1, textDecoration: "underline" }}>
          {words(redirectUrl ? "completion.continueToOrganiser" : "completion.backToEvent")}
        </Typography>
      </Box>
    </PreviewFrame>
  );
};
