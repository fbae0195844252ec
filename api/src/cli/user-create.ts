// npm run user:create -- --email E --password P [--superuser]
import { parseArgs } from "node:util";
import { MIN_PASSWORD_LENGTH } from "@ticketing/shared/constants";
import { z } from "zod";
import { DomainError } from "../lib/errors.ts";
import { apiTranslator } from "../lib/i18n.ts";
import { createUser } from "../services/accounts/sessions.ts";
import { openCliDatabase } from "./database.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    superuser: { type: "boolean", default: false },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
  },
});
const Args = z.object({
  email: z.email("--email must be an email address"),
  password: z.string().min(MIN_PASSWORD_LENGTH, `--password must have at least ${MIN_PASSWORD_LENGTH} characters`),
});
const parsed = Args.safeParse(values);
if (!parsed.success) {
  console.error(parsed.error.issues.map((i) => i.message).join("\n"));
  console.error("Usage: npm run user:create -- --email E --password P [--superuser]");
  process.exit(2);
}
const { database } = await openCliDatabase();
try {
  const user = await createUser(database, {
    ...parsed.data,
    isSuperuser: values.superuser,
    firstName: values["first-name"],
    lastName: values["last-name"],
  });
  console.log(
    `Created ${user.isSuperuser ? "superuser" : "user"} #${user.id} ${user.email} (personal unit #${user.personalUnitId})`,
  );
} catch (error) {
  // The API's messages are keys of its catalogue: the command line reads them in English.
  const t = apiTranslator("en");
  console.error(
    error instanceof DomainError
      ? error.messages
          .map((message) => (typeof message === "string" ? t(message, error.values) : t(message.key, message.values)))
          .join("\n")
      : error,
  );
  process.exitCode = 1;
} finally {
  await database.close();
}
