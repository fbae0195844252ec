import { BASKET_STATUSES } from "@ticketing/shared/constants";

export const basketStatusChoices = BASKET_STATUSES.map((status) => ({
  id: status,
  name: `admin.basketStatus.${status}`,
}));
