import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXTRA_INFO_TYPES, type ExtraInfoType, MAJORITY_AGE } from "./constants.ts";
import { COUNTRIES } from "./countries.ts";
import {
  type CalendarDate,
  EXTRA_INFO_MESSAGES,
  type ExtraInfoField,
  type ExtraInfoResult,
  isMajorOn,
  isValidEmailAddress,
  parseIsoDate,
  TEXT_MAX_LENGTH,
  TEXTAREA_MAX_LENGTH,
  validateExtraInfo,
} from "./extra-infos.ts";

const field = (type: ExtraInfoType, extra: Partial<ExtraInfoField> = {}): ExtraInfoField => ({
  type,
  isRequired: false,
  ...extra,
});
const valid = (value: string): ExtraInfoResult => ({ ok: true, value });
const problem = (result: ExtraInfoResult) => (result.ok ? null : result.problem);

describe("required", () => {
  it.each(EXTRA_INFO_TYPES.filter((t) => t !== "boolean"))(
    "%s: empty is refused when required, kept empty otherwise",
    (type) => {
      const context = { today: "2026-11-21" };
      for (const raw of [undefined, null, "", "   "]) {
        const result = validateExtraInfo(field(type, { isRequired: true, choices: ["a"] }), raw, context);
        expect(result).toEqual({
          ok: false,
          problem: "required",
          message: "This field is required",
          messageKey: "forms.errors.required",
        });
        expect(validateExtraInfo(field(type), raw, context)).toEqual(valid(""));
      }
    },
  );
});

describe("email", () => {
  it.each([
    ["ann@example.org", "ann@example.org"],
    ["  Ann.Lee+tickets@Mail.Example.ORG ", "Ann.Lee+tickets@mail.example.org"],
    ["ann@example.org,bob@example.ch", "ann@example.org, bob@example.ch"],
    ["ann@example.org, , bob@example.ch,", "ann@example.org, bob@example.ch"],
    ["zoé@example.org", null],
    ["ann@bücher.de", "ann@bücher.de"],
    ["ann@xn--bcher-kva.de", "ann@xn--bcher-kva.de"],
    ["ann@my-host.co.uk", "ann@my-host.co.uk"],
    ["ann@localhost", null],
    ["ann@example", null],
    ["ann@example.o", null],
    ["ann@-example.org", null],
    ["ann@example-.org", null],
    ["ann@example..org", null],
    ["ann@.example.org", null],
    ["ann.@example.org", null],
    ["ann..lee@example.org", null],
    ["@example.org", null],
    ["ann example@example.org", null],
    ["ann@example.org; bob@example.org", null],
    ["ann@example.org, bob", null],
    [",", null],
    ["ann@exa_mple.org", null],
    ["ann@example.123", null],
  ])("%j → %j", (raw, expected) => {
    const result = validateExtraInfo(field("email"), raw);
    expect(result).toEqual(
      expected === null ? expect.objectContaining({ ok: false, problem: "email" }) : valid(expected),
    );
  });

  it("refuses an address longer than 254 characters or a local part over 64", () => {
    expect(isValidEmailAddress(`${"a".repeat(65)}@example.org`)).toBe(false);
    const longDomain = ["b", "c", "d", "e"].map((letter) => letter.repeat(62)).join(".");
    expect(isValidEmailAddress(`a@${longDomain}.org`)).toBe(false); // 257 characters
    expect(isValidEmailAddress(`a@${longDomain.slice(4)}.org`)).toBe(true); // 253
  });
});

describe("phone", () => {
  it.each([
    ["+41 79 123 45 67", "+41 79 123 45 67"],
    ["079  123 45 67", "079 123 45 67"],
    ["(021) 123-45-67", "(021) 123-45-67"],
    ["+1 (555) 010-9999", "+1 (555) 010-9999"],
    ["123456", "123456"],
    ["12345", null],
    ["1".repeat(21), null],
    ["1".repeat(20), "1".repeat(20)],
    ["079 123 45 67 ext 2", null],
    ["079.123.45.67", null],
    ["41+79 123 45 67", null],
    ["((021)) 123 45 67", null],
    ["(021 123 45 67", null],
    ["021) 123 45 67", null],
    ["+-- () 12", null],
  ])("%j → %j", (raw, expected) => {
    const result = validateExtraInfo(field("phone"), raw);
    expect(result).toEqual(
      expected === null
        ? expect.objectContaining({ ok: false, message: "Field requires a valid phone number" })
        : valid(expected),
    );
  });
});

describe("numerical", () => {
  it.each([
    ["12", "12"],
    ["12.5", "12.5"],
    ["12,50", "12.50"],
    ["0", "0"],
    ["12.345", null],
    ["-3", null],
    ["1e3", null],
    ["12.", null],
    [".5", null],
    ["1 000", null],
    ["abc", null],
  ])("%j → %j", (raw, expected) => {
    const result = validateExtraInfo(field("numerical"), raw);
    expect(result).toEqual(
      expected === null
        ? expect.objectContaining({ ok: false, message: "Field requires a valid number" })
        : valid(expected),
    );
  });
});

describe("date and datetime", () => {
  it.each([
    ["2026-11-21", true],
    ["2024-02-29", true],
    ["2026-02-29", false],
    ["2000-02-29", true],
    ["1900-02-29", false],
    ["2026-04-31", false],
    ["2026-13-01", false],
    ["2026-00-10", false],
    ["2026-1-5", false],
    ["21.11.2026", false],
    ["0198-05-01", false],
    ["2026-11-21T10:00", false],
  ])("date %j valid: %s", (raw, expected) => {
    expect(validateExtraInfo(field("date"), raw).ok).toBe(expected);
  });

  it.each([
    ["2026-11-21T19:30", "2026-11-21T19:30"],
    ["2026-11-21 19:30", "2026-11-21T19:30"],
    ["2026-11-21T19:30:15", "2026-11-21T19:30:15"],
    ["2026-11-21T24:00", null],
    ["2026-11-21T19:60", null],
    ["2026-02-30T10:00", null],
    ["2026-11-21", null],
    ["2026-11-21T7:30", null],
  ])("datetime %j → %j", (raw, expected) => {
    const result = validateExtraInfo(field("datetime"), raw);
    expect(result).toEqual(
      expected === null ? expect.objectContaining({ ok: false, problem: "datetime" }) : valid(expected),
    );
  });
});

describe("dateMajor", () => {
  const major = field("dateMajor", { majorReferenceDate: "2027-03-01" });

  it.each([
    ["2009-03-01", true], // 18 on the day of the event
    ["2009-03-02", false], // 18 the day after
    ["1980-07-14", true],
    ["2009-02-28", true],
    ["2030-01-01", false], // not born yet
  ])("born %s, event 2027-03-01: major %s", (birth, expected) => {
    expect(validateExtraInfo(major, birth).ok).toBe(expected);
  });

  it("says what is missing, with the age", () => {
    expect(validateExtraInfo(major, "2010-01-01")).toEqual({
      ok: false,
      problem: "major",
      message: "You must be at least 18 years old on the date of the event",
      messageKey: "forms.errors.major",
      values: { age: 18 },
    });
    expect(
      validateExtraInfo(field("dateMajor", { majorReferenceDate: "2027-03-01", majorityAge: 16 }), "2011-01-01").ok,
    ).toBe(true);
  });

  it("makes someone born on 29 February major on 1 March of a non-leap year, on 29 February of a leap one", () => {
    const born = parseIsoDate("2008-02-29") as CalendarDate;
    expect(isMajorOn(born, { year: 2026, month: 2, day: 28 })).toBe(false);
    expect(isMajorOn(born, { year: 2026, month: 3, day: 1 })).toBe(true);
    expect(isMajorOn(parseIsoDate("2010-02-28") as CalendarDate, { year: 2028, month: 2, day: 29 })).toBe(true);
    expect(isMajorOn(parseIsoDate("2010-03-01") as CalendarDate, { year: 2028, month: 2, day: 29 })).toBe(false);
  });

  it("takes the date part of a longer reference, falls back to today, and needs one of them", () => {
    expect(
      validateExtraInfo(field("dateMajor", { majorReferenceDate: "2027-03-01T20:00:00+01:00" }), "2009-03-01").ok,
    ).toBe(true);
    expect(validateExtraInfo(field("dateMajor"), "2008-11-21", { today: "2026-11-21" }).ok).toBe(true);
    expect(validateExtraInfo(field("dateMajor"), "2008-11-22", { today: "2026-11-21" }).ok).toBe(false);
    expect(() => validateExtraInfo(field("dateMajor"), "2000-01-01")).toThrow(TypeError);
  });

  it("refuses a birth date that is not a date", () => {
    expect(problem(validateExtraInfo(major, "2009-02-30"))).toBe("date");
  });
});

describe("choice, country, boolean, text", () => {
  const meal = field("choice", { choices: ["Vegetarian", "Meat", "Vegan "] });

  it("accepts a proposed choice, in its own spelling", () => {
    expect(validateExtraInfo(meal, "Meat")).toEqual(valid("Meat"));
    expect(validateExtraInfo(meal, " vegetarian ")).toEqual(valid("Vegetarian"));
    expect(validateExtraInfo(meal, "Vegan")).toEqual(valid("Vegan "));
    expect(problem(validateExtraInfo(meal, "Fish"))).toBe("choice");
    expect(problem(validateExtraInfo(field("choice"), "Fish"))).toBe("choice");
    expect(problem(validateExtraInfo(field("choice", { choices: ["A", "a"] }), "A"))).toBeNull();
    expect(problem(validateExtraInfo(field("choice", { choices: ["A", "a"] }), " ä"))).toBe("choice");
  });

  it("accepts ISO 3166-1 alpha-2 codes, upper-cased, and nothing else", () => {
    expect(validateExtraInfo(field("country"), "ch")).toEqual(valid("CH"));
    expect(validateExtraInfo(field("country"), "FR")).toEqual(valid("FR"));
    expect(validateExtraInfo(field("country"), "XK")).toEqual(valid("XK"));
    for (const code of ["EU", "UN", "SU", "UK", "ZZ", "CHE", "Switzerland", "C"])
      expect(problem(validateExtraInfo(field("country"), code)), code).toBe("country");
  });

  it("ships 249 ISO codes plus Kosovo, each once, with English and French names", () => {
    expect(COUNTRIES).toHaveLength(250);
    expect(new Set(COUNTRIES.map(([code]) => code)).size).toBe(250);
    expect(COUNTRIES.find(([code]) => code === "CH")).toEqual(["CH", "Switzerland", "Suisse"]);
    for (const [code, en, fr] of COUNTRIES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(en.length * fr.length).toBeGreaterThan(0);
    }
  });

  it("reads a checkbox: ticked, unticked, or refused", () => {
    const box = field("boolean");
    expect(validateExtraInfo(box, "true")).toEqual(valid("true"));
    expect(validateExtraInfo(box, "on")).toEqual(valid("true"));
    expect(validateExtraInfo(box, "ON")).toEqual(valid("true"));
    expect(validateExtraInfo(box, "false")).toEqual(valid("false"));
    expect(validateExtraInfo(box, undefined)).toEqual(valid("false"));
    expect(problem(validateExtraInfo(box, "yes"))).toBe("boolean");
    const mustAccept = field("boolean", { isRequired: true });
    expect(validateExtraInfo(mustAccept, "on")).toEqual(valid("true"));
    expect(problem(validateExtraInfo(mustAccept, undefined))).toBe("required");
    expect(problem(validateExtraInfo(mustAccept, "false"))).toBe("required");
  });

  it("trims texts, keeps a textarea's lines, and bounds their length", () => {
    expect(validateExtraInfo(field("text"), "  Ann \r\n Lee ")).toEqual(valid("Ann Lee"));
    expect(validateExtraInfo(field("textarea"), " line 1\r\nline 2 ")).toEqual(valid("line 1\nline 2"));
    expect(validateExtraInfo(field("text"), "é".repeat(TEXT_MAX_LENGTH)).ok).toBe(true);
    expect(validateExtraInfo(field("text"), "é".repeat(TEXT_MAX_LENGTH + 1))).toEqual({
      ok: false,
      problem: "tooLong",
      message: `Enter at most ${TEXT_MAX_LENGTH} characters`,
      messageKey: "forms.errors.too_long",
      values: { max: TEXT_MAX_LENGTH },
    });
    expect(validateExtraInfo(field("textarea"), "x".repeat(TEXTAREA_MAX_LENGTH + 1)).ok).toBe(false);
  });

  it("has an English message and a key for every problem", () => {
    for (const { key, en } of Object.values(EXTRA_INFO_MESSAGES)) {
      expect(key).toMatch(/^forms\.errors\.\w+$/);
      expect(en.length).toBeGreaterThan(0);
    }
  });
});

describe("extra info properties", () => {
  const date = fc
    .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }));
  const iso = ({ year, month, day }: CalendarDate) =>
    `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  const nextDay = ({ year, month, day }: CalendarDate): CalendarDate => {
    const d = new Date(Date.UTC(year, month - 1, day + 1));
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  };
  /** The day someone born on `birth` turns `years`: 29 February → 1 March in a non-leap year. */
  const anniversary = (birth: CalendarDate, years: number): CalendarDate =>
    parseIsoDate(iso({ ...birth, year: birth.year + years })) ?? { year: birth.year + years, month: 3, day: 1 };

  it("someone born exactly 18 years before the reference date is major; born one day later is not", () => {
    fc.assert(
      fc.property(date, (birth) => {
        const turning = anniversary(birth, MAJORITY_AGE);
        // Born on 29 February, they come of age on 1 March of a common year: so does someone born on 1 March.
        fc.pre(!(birth.month === 2 && turning.month === 3));
        const reference = iso(turning);
        const dateMajor = field("dateMajor", { majorReferenceDate: reference });
        expect(validateExtraInfo(dateMajor, iso(birth)).ok).toBe(true);
        expect(problem(validateExtraInfo(dateMajor, iso(nextDay(birth))))).toBe("major");
      }),
    );
  });

  it("being major is monotonic: older people stay major, a later reference keeps them major", () => {
    fc.assert(
      fc.property(date, date, date, (a, b, reference) => {
        const [earlier, later] = iso(a) <= iso(b) ? [a, b] : [b, a];
        // born earlier: major whenever someone born later is
        if (isMajorOn(later, reference)) expect(isMajorOn(earlier, reference)).toBe(true);
        // a later reference date: major whenever at an earlier one
        if (isMajorOn(reference, earlier)) expect(isMajorOn(reference, later)).toBe(true);
      }),
    );
  });

  it("every real calendar date is a valid date and reads back the same", () => {
    fc.assert(
      fc.property(date, (d) => {
        expect(validateExtraInfo(field("date"), iso(d))).toEqual(valid(iso(d)));
        expect(parseIsoDate(iso(d))).toEqual(d);
      }),
    );
  });

  it("any address at a domain with a dot is valid, alone or in a list", () => {
    const local = fc.stringMatching(/^[a-z0-9_+-]{1,20}(\.[a-z0-9_+-]{1,10})?$/);
    const domain = fc.domain().filter((d) => /\.[a-z]{2,}$/.test(d));
    fc.assert(
      fc.property(fc.array(fc.tuple(local, domain), { minLength: 1, maxLength: 3 }), (pairs) => {
        const list = pairs.map(([l, d]) => `${l}@${d}`).join(",");
        expect(validateExtraInfo(field("email"), list)).toEqual(valid(list.split(",").join(", ")));
      }),
    );
  });

  it("a number with at most 2 decimals is valid, with either separator", () => {
    fc.assert(
      fc.property(fc.nat(), fc.option(fc.stringMatching(/^\d{1,2}$/), { nil: null }), fc.boolean(), (n, f, comma) => {
        const raw = f === null ? String(n) : `${n}${comma ? "," : "."}${f}`;
        expect(validateExtraInfo(field("numerical"), raw)).toEqual(valid(raw.replace(",", ".")));
      }),
    );
  });

  it("validation never throws and an accepted value is accepted again unchanged", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXTRA_INFO_TYPES),
        fc.boolean(),
        fc.string({ maxLength: 30 }),
        (type, isRequired, raw) => {
          const f = field(type, { isRequired, choices: ["A", "b"], majorReferenceDate: "2026-11-21" });
          const result = validateExtraInfo(f, raw);
          if (result.ok) expect(validateExtraInfo(f, result.value)).toEqual(result);
        },
      ),
    );
  });
});
