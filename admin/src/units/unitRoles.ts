import { UNIT_ROLES } from "@ticketing/shared/constants";

export const unitRoleChoices = UNIT_ROLES.map((role) => ({ id: role, name: `admin.unitRole.${role}` }));
