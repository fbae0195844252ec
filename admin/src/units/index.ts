import GroupsIcon from "@mui/icons-material/Groups";
import { lazyScreen } from "../lazyScreen.ts";

export default {
  list: lazyScreen(() => import("./UnitList.tsx"), "UnitList"),
  edit: lazyScreen(() => import("./UnitEdit.tsx"), "UnitEdit"),
  create: lazyScreen(() => import("./UnitCreate.tsx"), "UnitCreate"),
  icon: GroupsIcon,
  recordRepresentation: "name",
};
