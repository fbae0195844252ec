import AddIcon from "@mui/icons-material/Add";
import { Stack, Typography } from "@mui/material";
import { useId, useState } from "react";
import {
  Form,
  HttpError,
  type Identifier,
  required,
  SaveButton,
  TextInput,
  useDataProvider,
  useNotify,
  useTranslate,
} from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { parseStock, priceToCents, validatePrice, validateStock } from "./articleInput.ts";

interface ArticleFormValues {
  title: string;
  price: string;
  stock: string;
}

// A fixed empty record, so that the form does not start from the event record around it.
const EMPTY_ARTICLE = { title: "", price: "", stock: "" };

/** `POST /events/:id/articles`: title, price in CHF (sent in cents), stock. */
export const AddArticleForm = ({ eventId, onAdded }: { eventId: Identifier; onAdded: () => void }) => {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const headingId = useId();
  // A new key gives a fresh, empty form after each added article.
  const [formKey, setFormKey] = useState(0);

  const submit = async (values: Partial<ArticleFormValues>) => {
    const price = priceToCents(values.price);
    const stock = parseStock(values.stock);
    if (price === null || stock === null) return; // the validators already said why
    try {
      await dataProvider.addArticle(eventId, { title: (values.title ?? "").trim(), price, stock });
    } catch (error) {
      // Field errors show inline; `root.serverError` becomes the notification (see dataProvider).
      if (error instanceof HttpError && error.body?.errors) return error.body.errors;
      notify(error instanceof Error ? error.message : "admin.errors.unexpected", { type: "error" });
      return;
    }
    notify("admin.articles.added", { type: "success" });
    setFormKey((current) => current + 1);
    onAdded();
  };

  return (
    <Form key={formKey} record={EMPTY_ARTICLE} onSubmit={submit} noValidate>
      <section aria-labelledby={headingId}>
        <Typography variant="subtitle1" component="h3" id={headingId} sx={{ mt: 3 }}>
          {translate("admin.articles.add")}
        </Typography>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: { md: "flex-start" } }}>
          <TextInput source="title" label="admin.articles.fields.title" validate={required()} />
          <TextInput
            source="price"
            label="admin.articles.fields.priceInput"
            validate={[required(), validatePrice]}
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
          />
          <TextInput
            source="stock"
            label="admin.articles.fields.stock"
            validate={[required(), validateStock]}
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
          <SaveButton
            label="admin.articles.add"
            icon={<AddIcon />}
            alwaysEnable
            sx={{ mt: 1, flexShrink: 0, whiteSpace: "nowrap" }}
          />
        </Stack>
      </section>
    </Form>
  );
};
