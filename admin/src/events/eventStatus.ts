import { EVENT_STATUSES } from "@ticketing/shared/constants";

export const eventStatusChoices = EVENT_STATUSES.map((status) => ({ id: status, name: `admin.eventStatus.${status}` }));
