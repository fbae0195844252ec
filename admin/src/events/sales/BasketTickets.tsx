import DownloadIcon from "@mui/icons-material/Download";
import { Button, CircularProgress, Stack, ToggleButton, ToggleButtonGroup } from "@mui/material";
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { hasValidTickets } from "./basketDetail.ts";
import { Empty, Section, useFailureText } from "./basketParts.tsx";
import { saveFile } from "./invoiceStatus.ts";

/**
 * The basket's valid tickets as one PDF, in the buyer's language unless staff choose the other one (to hand a
 * printed ticket to someone at the door, or send it again by hand).
 */
export const BasketTickets = ({ basket }: { basket: BasketDetail }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const failureText = useFailureText();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [language, setLanguage] = useState<Language>(basket.language);
  const [isPending, setPending] = useState(false);

  const download = async () => {
    setPending(true);
    try {
      const { data } = await dataProvider.downloadBasketTickets(basket.id, language);
      saveFile(data.blob, data.fileName);
    } catch (error) {
      notify(failureText("admin.basketDetail.tickets.failed", error), { type: "error" });
    } finally {
      setPending(false);
    }
  };

  return (
    <Section title={translate("admin.basketDetail.tickets.title")}>
      {hasValidTickets(basket) ? (
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={language}
            onChange={(_event, value: Language | null) => value && setLanguage(value)}
            aria-label={translate("admin.basketDetail.tickets.language")}
          >
            {LANGUAGES.map((choice) => (
              <ToggleButton key={choice} value={choice}>
                {translate(`admin.languages.${choice}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Button
            variant="contained"
            startIcon={isPending ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
            disabled={isPending}
            onClick={download}
          >
            {translate("admin.basketDetail.tickets.download")}
          </Button>
        </Stack>
      ) : (
        <Empty text={translate("admin.basketDetail.tickets.none")} />
      )}
    </Section>
  );
};
