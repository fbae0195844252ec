// What the images uploaded for an event's elements may weigh (docs/decisions/0035). The API refuses past these
// figures; the back office says them beside its upload button.

/** One image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * One event's images in all. Enough for a picture on each of a hundred articles; twenty 5 MB photos (98 MB) are
 * not one event's pictures but a database filling up. Images replaced or removed in the editor stay stored (a
 * published page may still show them), so they count too.
 */
export const EVENT_IMAGE_QUOTA = { count: 100, bytes: 50 * 1024 * 1024 } as const;

/** Uploads one person may make in an hour, whatever the events: a runaway script is stopped early. */
export const IMAGE_UPLOADS_PER_HOUR = 60;

/** Bytes in the unit the messages quote (MB / Mo), with one decimal at most. */
export const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
