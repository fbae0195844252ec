import { createDatabase } from "@ticketing/db";
import { loadConfig } from "../env.ts";
import { DEMO_MODERATOR, DEMO_ORGANISER, isSeeded, seedDemo } from "../seed.ts";

const config = loadConfig();
const database = createDatabase({
  url: config.databaseUrl,
  driver: config.dbDriver,
  authToken: config.databaseAuthToken,
});
await database.migrate();
if (await isSeeded(database)) {
  console.log("The database already has users: nothing seeded.");
} else {
  await seedDemo(database);
  console.log(
    `Seeded the demo event "demo". Organiser: ${DEMO_ORGANISER.email} / ${DEMO_ORGANISER.password}; moderator: ${DEMO_MODERATOR.email} / ${DEMO_MODERATOR.password}`,
  );
}
await database.close();
