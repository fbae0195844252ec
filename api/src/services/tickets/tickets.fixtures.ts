// Test data for the ticket and mail services: a fresh migrated database and a validated order in it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, createDatabase, type Database, type Driver, eq, run, schema } from "@ticketing/db";

export interface TestDatabase {
  database: Database;
  directory: string;
  /** A second connection to the same file: another worker or process. */
  connectAgain(): Database;
  dispose(): Promise<void>;
}

export async function createTestDatabase(driver: Driver = "better-sqlite3"): Promise<TestDatabase> {
  const directory = mkdtempSync(join(tmpdir(), "ticketing-services-"));
  const url = `file:${join(directory, "test.sqlite")}`;
  const database = createDatabase({ url, driver });
  await database.migrate();
  const others: Database[] = [];
  return {
    database,
    directory,
    connectAgain() {
      const other = createDatabase({ url, driver });
      others.push(other);
      return other;
    },
    async dispose() {
      for (const other of others) await other.close();
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface SeededOrder {
  eventId: number;
  basketId: number;
  articleIds: number[];
}

interface OrderOptions {
  testing?: boolean;
  communication?: Partial<typeof schema.communicationSettings.$inferInsert>;
}

/** An event with a validated basket of two articles (the first with two options) and a billing information. */
export function seedOrder(database: Database, options: OrderOptions = {}): Promise<SeededOrder> {
  const { baskets, billingInformation, communicationSettings, events, frontendLogins, selectedNodes, units } = schema;
  const suffix = Math.random().toString(36).slice(2, 8);
  return database.transaction(function* (tx) {
    const unit = yield* run(tx.insert(units).values({ name: "Student association" }).returning().get());
    const event = yield* run(
      tx
        .insert(events)
        .values({
          unitId: unit.id,
          name: "Winter ball",
          frontendTitle: "Winter Ball 2026",
          frontendPath: `winter-ball-${suffix}`,
          status: "public",
          location: "Rolex Learning Center",
          locationAddress: "Route Cantonale, 1015 Lausanne",
          startDate: "2026-12-12T18:00:00.000Z",
          endDate: "2026-12-12T22:30:00.000Z",
        })
        .returning()
        .get(),
    );
    if (options.communication) {
      yield* run(
        tx
          .insert(communicationSettings)
          .values({ eventId: event.id, ...options.communication })
          .returning()
          .get(),
      );
    }
    const login = yield* run(
      tx
        .insert(frontendLogins)
        .values({ eventId: event.id, method: "anonymous", username: `anonymous-${suffix}`, email: "zoe@example.org" })
        .returning()
        .get(),
    );
    const billing = yield* run(
      tx
        .insert(billingInformation)
        .values({
          firstName: "Zoé",
          lastName: "Müller",
          email: "zoe@example.org",
          address: "Avenue de la Gare 1",
          postalCode: "1003",
          city: "Lausanne",
          country: "CH",
          createdById: login.id,
        })
        .returning()
        .get(),
    );
    const basket = yield* run(
      tx
        .insert(baskets)
        .values({
          eventId: event.id,
          createdById: login.id,
          status: "validated",
          testing: options.testing ?? false,
          billingInformationId: billing.id,
          unikey: `K7Q2${suffix}`.toUpperCase(),
          expiresAt: "2026-11-21T12:00:00.000Z",
        })
        .returning()
        .get(),
    );
    const node = (values: Partial<typeof selectedNodes.$inferInsert> & { title: string; price: number }) =>
      run(
        tx
          .insert(selectedNodes)
          .values({ basketId: basket.id, isArticle: false, ...values })
          .returning()
          .get(),
      );
    const dinner = yield* node({ title: "Dinner and ball", price: 8500, isArticle: true });
    yield* node({ title: "Vegetarian menu", price: 0, parentId: dinner.id });
    yield* node({ title: "Cloakroom", price: 300, parentId: dinner.id });
    yield* node({ title: "Forgotten option", price: 999, parentId: dinner.id, status: "released" });
    const ball = yield* node({ title: "Ball only", price: 3500, isArticle: true });
    yield* node({ title: "Released article", price: 1000, isArticle: true, status: "released" });
    return { eventId: event.id, basketId: basket.id, articleIds: [dinner.id, ball.id] };
  });
}

/** Adds `count` held articles (25.00 each, titled "Entry" unless `titleOf` says) to a basket: a group order. */
export function addArticles(
  database: Database,
  basketId: number,
  count: number,
  titleOf: (index: number) => string = () => "Entry",
): Promise<void> {
  return database.transaction(function* (tx) {
    for (let index = 0; index < count; index++)
      yield* run(
        tx
          .insert(schema.selectedNodes)
          .values({ basketId, isArticle: true, title: titleOf(index), price: 2500 })
          .run(),
      );
  });
}

/** Whether an optional tool (poppler's pdftotext, zbarimg) is installed: the tests use it when it is. */
export function hasCommand(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The QR codes of a PDF's pages, in page order, as a phone at the door reads them: each page rendered with
 * pdftoppm, then decoded with zbarimg (Debian's poppler-utils and zbar-tools, which .ci/run installs). A page
 * without a readable code is an error, so is a missing tool: these tests must not pass without looking.
 */
export function qrCodesOf(pdf: Buffer): string[] {
  for (const command of ["pdftoppm", "zbarimg"])
    if (!hasCommand(command)) throw new Error(`${command} is missing: apt-get install poppler-utils zbar-tools`);
  const directory = mkdtempSync(join(tmpdir(), "ticketing-qr-"));
  try {
    const file = join(directory, "tickets.pdf");
    writeFileSync(file, pdf);
    execFileSync("pdftoppm", ["-png", "-r", "100", file, join(directory, "page")], { stdio: "ignore" });
    // page-1.png, page-2.png… (zero-padded once there are ten or more): name order is page order.
    const pages = readdirSync(directory)
      .filter((name) => name.endsWith(".png"))
      .sort();
    return pages.map((page) =>
      execFileSync("zbarimg", ["--quiet", "--raw", join(directory, page)], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim(),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The seeded order's texts written in French too (issue 34), as an organiser and the add to basket leave them: the
 * event's title, the first article's and its first option's; "Ball only" and "Cloakroom" are left without French.
 */
export async function writeFrenchTitles(database: Database, order: SeededOrder) {
  const { events, selectedNodes } = schema;
  const [dinner] = order.articleIds;
  await database.db.update(events).set({ frontendTitleFr: "Bal d'hiver 2026" }).where(eq(events.id, order.eventId));
  await database.db
    .update(selectedNodes)
    .set({ titleFr: "Dîner et bal" })
    .where(eq(selectedNodes.id, dinner as number));
  await database.db
    .update(selectedNodes)
    .set({ titleFr: "Menu végétarien" })
    .where(and(eq(selectedNodes.parentId, dinner as number), eq(selectedNodes.title, "Vegetarian menu")));
}
