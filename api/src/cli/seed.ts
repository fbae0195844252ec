import { DEMO_MODERATOR, DEMO_ORGANISER, isSeeded, seedDemo } from "../seed.ts";
import { openCliDatabase } from "./database.ts";

const { database } = await openCliDatabase();
if (await isSeeded(database)) {
  console.log("The database already has users: nothing seeded.");
} else {
  await seedDemo(database);
  console.log(
    `Seeded the demo event "demo". Organiser: ${DEMO_ORGANISER.email} / ${DEMO_ORGANISER.password}; moderator: ${DEMO_MODERATOR.email} / ${DEMO_MODERATOR.password}`,
  );
}
await database.close();
