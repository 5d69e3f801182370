// What the server logs when the site's pictures are in the media library, or when it gave up on
// them (docs/decisions/0046). Dependency-free, so the browser tests and the Lighthouse script can
// wait for the same lines the server writes.

export const MEDIA_SEED_ADDED = "site pictures added to the media library";
export const MEDIA_SEED_FAILED = "could not add the site's pictures to the media library";
