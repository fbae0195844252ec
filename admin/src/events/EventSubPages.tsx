// What the event's settings and communication pages share: their own pages' navigation under the event's, and a
// form toolbar that only saves.
import { Box } from "@mui/material";
import { Button, LinkBase, SaveButton, Toolbar, useCreatePath, useParams, useTranslate } from "react-admin";

/**
 * The pages of one area of the event (`/events/:id/<area>/<page>`), `current` marked as the page shown; `label`
 * the i18n key of the navigation's name, `pageLabel` that of a page's.
 */
export const EventSubPageNav = <Page extends string>({
  area,
  pages,
  current,
  label,
  pageLabel,
}: {
  area: string;
  pages: readonly Page[];
  current: Page;
  label: string;
  pageLabel: (page: Page) => string;
}) => {
  const { id } = useParams<{ id: string }>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const areaPath = `${createPath({ resource: "events", id, type: "edit" })}/${area}`;
  return (
    <Box
      component="nav"
      aria-label={translate(label)}
      sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, px: 2, pt: 1 }}
    >
      {pages.map((page) => (
        <Button
          key={page}
          component={LinkBase}
          to={`${areaPath}/${page}`}
          label={pageLabel(page)}
          variant={page === current ? "outlined" : "text"}
          aria-current={page === current ? "page" : undefined}
        />
      ))}
    </Box>
  );
};

/** A settings or communication page's form saves the fields it owns; deleting the event is no setting. */
export const SaveToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);
