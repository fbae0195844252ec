import GavelIcon from "@mui/icons-material/Gavel";
import PrivacyTipIcon from "@mui/icons-material/PrivacyTip";
import { Badge } from "@mui/material";
import { Menu as RaMenu, useBasename, useGetIdentity, useGetList, useTranslate } from "react-admin";

/**
 * The events list filtered to the events waiting for moderation, in react-admin's list URL format (`filter` as
 * JSON), so that the list's moderation filter shows the choice and can be cleared like any other.
 */
const MODERATION_QUEUE_PATH = `/events?${new URLSearchParams({ filter: JSON.stringify({ moderationStatus: "requested" }) })}`;

/**
 * docs/design.md §4 "Event status and locks": superusers' way to the events waiting for them, with how many there are;
 * the count is the events list's total under the same filter (one row asked), refreshed whenever react-admin refreshes.
 */
const ModerationQueueItem = () => {
  const translate = useTranslate();
  const basename = useBasename();
  const { total } = useGetList("events", {
    filter: { moderationStatus: "requested" },
    pagination: { page: 1, perPage: 1 },
    sort: { field: "startDate", order: "ASC" },
  });
  const waiting = total ?? 0;
  return (
    <RaMenu.Item
      to={`${basename}${MODERATION_QUEUE_PATH}`}
      primaryText={translate("admin.moderation.queue")}
      aria-label={`${translate("admin.moderation.queue")} — ${translate("admin.moderation.queueWaiting", { smart_count: waiting })}`}
      leftIcon={
        <Badge badgeContent={waiting} color="error" max={99} data-testid="moderation-queue-count">
          <GavelIcon />
        </Badge>
      }
    />
  );
};

/**
 * A buyer's personal data (docs/decisions/0046): for superusers and owners — every user owns their personal unit, so
 * every signed-in user; the API answers which units they cover, and 403 to one who owns none.
 */
const PersonalDataItem = () => {
  const translate = useTranslate();
  const basename = useBasename();
  return (
    <RaMenu.Item
      to={`${basename}/personal-data`}
      primaryText={translate("admin.personalData.menu")}
      leftIcon={<PrivacyTipIcon />}
    />
  );
};

/** The resources' entries, and for superusers (the moderators) the moderation queue. */
export const Menu = () => {
  const { identity } = useGetIdentity();
  return (
    <RaMenu>
      <RaMenu.ResourceItems />
      {identity?.isSuperuser === true && <ModerationQueueItem />}
      {identity && <PersonalDataItem />}
    </RaMenu>
  );
};
