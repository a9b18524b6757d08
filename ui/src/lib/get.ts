// A GET answered for this visitor alone: a module of its own, so the home page's first script
// (which needs only api.ts's post and conditional GET) does not carry it.
import { ApiError, send, type GetPath, type GetQuery, type GetResult } from "./api";

/** A GET answered for this visitor alone (never cached), typed by its path and its query. */
export async function get<P extends GetPath>(path: P, query?: GetQuery<P>): Promise<GetResult<P>> {
  const response = await send(query ? `${path}?${new URLSearchParams(query as Record<string, string>)}` : path, { cache: "no-store" });
  if (!response.ok) throw new ApiError(response.status, null);
  return (await response.json()) as GetResult<P>;
}
