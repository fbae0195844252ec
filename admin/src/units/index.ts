import GroupsIcon from "@mui/icons-material/Groups";
import { UnitCreate } from "./UnitCreate.tsx";
import { UnitEdit } from "./UnitEdit.tsx";
import { UnitList } from "./UnitList.tsx";

export default {
  list: UnitList,
  edit: UnitEdit,
  create: UnitCreate,
  icon: GroupsIcon,
  recordRepresentation: "name",
};
