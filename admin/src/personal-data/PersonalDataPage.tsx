// `/personal-data` (docs/decisions/0046): support types a buyer's email, sees what is held about it (counted per
// kind and per event, in the events they cover), downloads it as JSON or csv, and erases it after typing the email
// again. Superusers cover the instance; owners their units' events; the API refuses anyone else.
import DeleteForeverIcon from "@mui/icons-material/DeleteForever";
import DownloadIcon from "@mui/icons-material/Download";
import SearchIcon from "@mui/icons-material/Search";
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from "@mui/material";
import { toSnake } from "@ticketing/shared/case";
import {
  PERSONAL_DATA_KINDS,
  type PersonalData,
  type PersonalDataErased,
  type PersonalDataErasure,
} from "@ticketing/shared/schemas/personal-data";
import { type FormEvent, useState } from "react";
import { Title, useDataProvider, useLocaleState, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { saveFile } from "../events/sales/invoiceStatus.ts";
import { intlLocaleOf } from "../i18nProvider.ts";
import { EraseDialog } from "./EraseDialog.tsx";

/**
 * "3 baskets · 8 form answers": what a count per kind says, in the reader's language, in the order of the kinds. The
 * data provider camelizes the counts' keys: they are the kinds' snake_case names again here.
 */
function useCountsText() {
  const translate = useTranslate();
  return (counts: Record<string, number>) => {
    const bySnake = new Map(Object.entries(counts).map(([kind, count]) => [toSnake(kind), count]));
    return PERSONAL_DATA_KINDS.filter((kind) => (bySnake.get(kind) ?? 0) > 0)
      .map((kind) => translate(`admin.personalData.kinds.${kind}`, { smart_count: bySnake.get(kind), _: kind }))
      .join(" · ");
  };
}

export const PersonalDataPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const countsText = useCountsText();
  const [email, setEmail] = useState("");
  const [data, setData] = useState<PersonalData | null>(null);
  const [erasures, setErasures] = useState<PersonalDataErasure[]>([]);
  const [erased, setErased] = useState<PersonalDataErased | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const [isErasing, setErasing] = useState(false);
  const date = (iso: string) =>
    new Intl.DateTimeFormat(intlLocaleOf(locale), { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));

  const failed = (error: unknown) =>
    setFailure(
      (error instanceof Error && error.message ? translate(error.message, { _: error.message }) : "") ||
        translate("admin.personalData.lookupFailed"),
    );

  const lookUp = async (address: string) => {
    setPending(true);
    setFailure(null);
    try {
      const [held, done] = await Promise.all([
        dataProvider.getPersonalData(address),
        dataProvider.getPersonalDataErasures(address),
      ]);
      setData(held.data);
      setErasures(done.data);
    } catch (error) {
      setData(null);
      failed(error);
    } finally {
      setPending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErased(null);
    if (email.trim() !== "") void lookUp(email.trim());
  };

  const download = async (format: "json" | "csv") => {
    if (!data) return;
    try {
      const { data: file } = await dataProvider.downloadPersonalData(data.email, format);
      saveFile(file.blob, file.fileName);
    } catch (error) {
      failed(error);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Title title={translate("admin.personalData.title")} />
      <Card>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate("admin.personalData.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate("admin.personalData.intro")}
          </Typography>
          <Stack component="form" onSubmit={submit} direction={{ xs: "column", sm: "row" }} spacing={2} noValidate>
            <TextField
              label={translate("admin.personalData.email")}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(change) => setEmail(change.target.value)}
              sx={{ flex: 1 }}
            />
            <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={isPending}>
              {translate("admin.personalData.lookUp")}
            </Button>
          </Stack>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </CardContent>
      </Card>

      {erased && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {translate("admin.personalData.erasedSummary", {
            date: date(erased.createdAt),
            events: erased.events.map((event) => event.name).join(", ") || "—",
            counts: countsText(erased.counts) || "—",
          })}
        </Alert>
      )}

      {data && (
        <Card sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" component="h2">
              {data.email}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {data.unitIds === null
                ? translate("admin.personalData.coversAll")
                : translate("admin.personalData.coversUnits", { units: data.unitNames.join(", ") })}
            </Typography>
            {!data.found ? (
              <Alert severity="info">{translate("admin.personalData.nothingHeld")}</Alert>
            ) : (
              <>
                <Typography variant="body1" sx={{ mb: 1 }}>
                  {countsText(data.counts)}
                </Typography>
                <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
                  {translate("admin.personalData.perEvent")}
                </Typography>
                <Box component="ul" sx={{ listStyle: "none", m: 0, p: 0 }}>
                  {data.events.map((event) => (
                    <Box component="li" key={event.id} sx={{ py: 1, borderBottom: 1, borderColor: "divider" }}>
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {event.name}{" "}
                        <Typography component="span" variant="body2" color="text.secondary">
                          ({event.unitName})
                        </Typography>
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {countsText(event.counts)}
                      </Typography>
                    </Box>
                  ))}
                </Box>
                <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mt: 2 }} useFlexGap>
                  <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void download("json")}>
                    {translate("admin.personalData.downloadJson")}
                  </Button>
                  <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void download("csv")}>
                    {translate("admin.personalData.downloadCsv")}
                  </Button>
                  <Box sx={{ flex: 1 }} />
                  <Button
                    variant="contained"
                    color="error"
                    startIcon={<DeleteForeverIcon />}
                    onClick={() => setErasing(true)}
                  >
                    {translate("admin.personalData.erase")}
                  </Button>
                </Stack>
              </>
            )}
            {erasures.length > 0 && (
              <Box sx={{ mt: 3 }}>
                <Typography variant="subtitle2" component="h3">
                  {translate("admin.personalData.pastErasures")}
                </Typography>
                <Box component="ul" sx={{ m: 0, pl: 3 }}>
                  {erasures.map((erasure) => (
                    <Typography component="li" variant="body2" key={erasure.id}>
                      {translate("admin.personalData.pastErasure", {
                        date: date(erasure.createdAt),
                        by: erasure.erasedByEmail ?? "—",
                        counts: countsText(erasure.counts) || translate("admin.personalData.nothing"),
                      })}
                    </Typography>
                  ))}
                </Box>
              </Box>
            )}
          </CardContent>
        </Card>
      )}

      {isErasing && data && (
        <EraseDialog
          data={data}
          onClose={() => setErasing(false)}
          onErased={(done) => {
            setErasing(false);
            setErased(done);
            void lookUp(data.email);
          }}
        />
      )}
    </Box>
  );
};
