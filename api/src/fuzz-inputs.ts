// Odd inputs both fuzz suites send: the API's (fuzz.test.ts) and the ticket office's forms'
// (ticket-office-fuzz.test.ts).

/** Keys named after built-in properties: a body or form read into a plain object must not trip on them. */
export const BUILT_IN_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "__defineGetter__",
  "length",
];
/** Texts that have broken parsers and checks elsewhere: empty, control and bidi characters, lone surrogates, escapes. */
export const ODD_TEXTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u202egnp.exe",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "\u200b",
  "\ufeff",
  "\ud800",
  "\udc00x",
  "😀👨‍👩‍👧",
  "e\u0301",
  "%00",
  "%",
  "../../etc/passwd",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "true",
  "[]",
  "{}",
  "'",
  '"',
  "\\",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "{{7*7}}",
];
/** Numbers as texts in the shapes a lax parser accepts. */
export const NUMBER_TEXTS = [
  "1",
  "01",
  "0",
  "-1",
  "1.5",
  "1e3",
  "0x1",
  "0b1",
  "0o7",
  "+1",
  " 1",
  "1 ",
  "9007199254740993",
];

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): it becomes U+FFFD, as a browser sends it. */
export const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
