// The inputs of an organiser's texts: one per language, each saying which placeholders it may use.
import { Box } from "@mui/material";
import { LANGUAGES } from "@ticketing/shared/constants";
import { type CommunicationText, communicationField } from "@ticketing/shared/schemas/events";
import { TextInput, useTranslate } from "react-admin";
import { placeholdersOf } from "./communicationPages.ts";

/** `text` in English and in French, side by side; empty means the product's own text. */
export const TextInLanguages = ({
  text,
  isMultiline = false,
  readOnly,
}: {
  text: CommunicationText;
  isMultiline?: boolean;
  readOnly: boolean;
}) => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { md: "1fr 1fr" }, columnGap: 2, width: "100%" }}>
      {LANGUAGES.map((language) => (
        <TextInput
          key={language}
          source={communicationField(text, language)}
          label={translate(`admin.communication.fields.${text}`, {
            language: translate(`admin.languages.${language}`),
          })}
          helperText={translate("admin.communication.placeholders", { list: placeholdersOf(text) })}
          multiline={isMultiline}
          minRows={isMultiline ? 4 : undefined}
          readOnly={readOnly}
          parse={(value: string) => value}
          fullWidth
        />
      ))}
    </Box>
  );
};
