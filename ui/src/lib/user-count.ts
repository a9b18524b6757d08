import { conditionalGetter } from "./api";

/** One getter for the whole page: the footer and the home page share the ETag and the answer. */
export const fetchUserCount = conditionalGetter("/api/user-count");

export const FOOTER_POLL_MS = 3000;
export const HOME_POLL_MS = 30000;
export const STATUS_POLL_MS = 3000;
