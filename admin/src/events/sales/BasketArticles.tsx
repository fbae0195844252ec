import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import type { ArticleStatus } from "@ticketing/shared/constants";
import type { BasketDetail, ItemAnswer } from "@ticketing/shared/schemas/sales";
import { useTranslate } from "react-admin";
import { answersByItem, formatAnswer } from "./basketDetail.ts";
import { Empty, Section, useBasketFormat } from "./basketParts.tsx";

/** A sold article's chip stands out; one not yet paid is a warning; one given back (refunded, expired) is muted. */
const STATUS_TONES: Record<
  ArticleStatus,
  { color: "success" | "warning" | "default"; variant: "filled" | "outlined" }
> = {
  held: { color: "warning", variant: "outlined" },
  awaiting_payment: { color: "warning", variant: "outlined" },
  sold: { color: "success", variant: "filled" },
  refunded: { color: "default", variant: "outlined" },
  expired: { color: "default", variant: "outlined" },
};

/** An article's form answers: "group / field" and the answer as staff read it. */
const ItemAnswers = ({ itemId, answers }: { itemId: number; answers: ItemAnswer[] }) => {
  const translate = useTranslate();
  const { intlLocale } = useBasketFormat();
  const words = { yes: translate("admin.basketDetail.yes"), no: translate("admin.basketDetail.no") };
  return (
    <Box
      component="dl"
      aria-label={translate("admin.basketDetail.answersOf", { id: itemId })}
      sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 2, rowGap: 0.5, my: 1, ml: 2 }}
    >
      {answers.map((answer, index) => (
        // The same field may be answered twice (a group repeated): the position tells them apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: answers have no id of their own and never move
        <Box key={index} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {answer.group ? `${answer.group} / ${answer.name}` : answer.name}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: "pre-line", wordBreak: "break-word" }}>
            {formatAnswer(answer, intlLocale, words)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
};

/**
 * The basket's articles, each with its options, price, form answers and its status as the API reads it with the
 * basket's (held, awaiting payment, sold, refunded, expired).
 */
export const BasketArticles = ({ basket }: { basket: Pick<BasketDetail, "articles" | "answers"> }) => {
  const translate = useTranslate();
  const { money } = useBasketFormat();
  const { articles } = basket;
  const answers = answersByItem(basket.answers);
  return (
    <Section title={translate("admin.basketDetail.articles")}>
      {articles.length === 0 ? (
        <Empty text={translate("admin.basketDetail.noArticles")} />
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.basketDetail.article")}</TableCell>
              <TableCell align="right">{translate("admin.basketDetail.price")}</TableCell>
              <TableCell>{translate("admin.basketDetail.status")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {articles.map((item) => {
              const itemAnswers = answers.get(item.id) ?? [];
              return (
                <TableRow key={item.id}>
                  <TableCell>
                    {item.title}{" "}
                    <Typography component="span" variant="caption" color="text.secondary">
                      #{item.id}
                    </Typography>
                    {item.options.map((option) => (
                      <Typography key={option.id} variant="body2" color="text.secondary" sx={{ pl: 2 }}>
                        + {option.title}
                        {option.price ? ` (${money(option.price)})` : ""}
                      </Typography>
                    ))}
                    {itemAnswers.length > 0 && <ItemAnswers itemId={item.id} answers={itemAnswers} />}
                  </TableCell>
                  <TableCell align="right" sx={{ verticalAlign: "top", whiteSpace: "nowrap" }}>
                    {money(item.price)}
                  </TableCell>
                  <TableCell sx={{ verticalAlign: "top" }}>
                    <Chip
                      size="small"
                      {...STATUS_TONES[item.status]}
                      label={translate(`admin.basketDetail.itemStatus.${item.status}`)}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Section>
  );
};
