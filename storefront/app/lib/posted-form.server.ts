// Every ticket-office action reads what was posted through `readPostedForm`: the pages' forms post
// `application/x-www-form-urlencoded` (or `multipart/form-data`); anything else is the sender's mistake, answered
// with a page that says so (root.tsx's error page), never the 500 that `request.formData()`'s TypeError gave.
import { data } from "react-router";
import type { UnreadableForm } from "./error-reasons";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The media type of a Content-Type header, lower-cased, without its parameters. */
const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * The posted form. A body that is not a form (text, JSON, none) answers 415 Unsupported Media Type; a form that
 * cannot be parsed (a multipart body without its boundary, or cut short) answers 400. Called first in an action,
 * before the API is asked anything: the refusal carries no session cookie, so no login token renewed on the way
 * may be lost with it.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const type = mediaType(request.headers.get("Content-Type"));
  if (!FORM_TYPES.includes(type)) throw data<UnreadableForm>({ reason: "unreadableForm" }, { status: 415 });
  // A body read twice is our mistake, not the sender's: left to fail as it does.
  if (request.bodyUsed) return request.formData();
  try {
    return await request.formData();
  } catch (error) {
    // A visitor who went away sent nothing wrong either.
    if (!(error instanceof TypeError) || request.signal.aborted) throw error;
    throw data<UnreadableForm>({ reason: "unreadableForm" }, { status: 400 });
  }
}
