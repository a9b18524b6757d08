// The only module that knows the HTTP details of the API.

import type { components, paths } from "./api-types";
import { ACCEPT_LANGUAGE, type Language } from "./language";

// Request and response shapes come from api-types.ts, generated from the server's OpenAPI document
// (`npm run api-types`); tests/integration/test_ui_api_types.py fails when it is out of date.
type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type PostPath = { [P in keyof paths]: paths[P]["post"] extends never | undefined ? never : P }[keyof paths];
export type GetPath = { [P in keyof paths]: paths[P]["get"] extends never | undefined ? never : P }[keyof paths];
export type PostBody<P extends PostPath> = Json<NonNullable<paths[P]["post"]>["requestBody"]>;
type PostResult<P extends PostPath> = Json<NonNullable<paths[P]["post"]>["responses"][200]>;
export type GetResult<P extends GetPath> = Json<NonNullable<paths[P]["get"]>["responses"][200]>;
export type GetQuery<P extends GetPath> = NonNullable<paths[P]["get"]>["parameters"] extends { query?: infer Q } ? Q : never;

/** The body of a failed call, as the API describes it. */
export type ApiErrorBody = Schemas["Error"] | Schemas["ValidationError"];
export type FormData = Schemas["FormData"];
export type Activation = Schemas["ActivationResult"];
export type Licence = Schemas["LicenceResult"]["license"];
export type ServerStatus = Schemas["ServerStatus"];
export type VpnServer = ServerStatus["vpn_servers"][number];
export type ProfileServer = Schemas["ProfileServer"];
export type DeviceList = Schemas["DeviceList"];
export type Device = DeviceList["devices"][number];
export type HeldOutDevice = DeviceList["held_out"][number];
export type ConnectionCheck = Schemas["ConnectionCheck"];
export type AboutFacts = Schemas["AboutFacts"];
export type SystemServer = ServerStatus["system_servers"][number];

/** A failed call: the HTTP status (0 when the network failed) and the body the API sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(`API ${status}`);
  }
}

/** A request to the API; a network that failed is an ApiError of status 0. */
export const send = (path: string, init: RequestInit) =>
  fetch(path, init).catch(() => {
    throw new ApiError(0, null);
  });

export async function post<P extends PostPath>(path: P, body: PostBody<P>, language: Language): Promise<PostResult<P>> {
  const response = await send(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": ACCEPT_LANGUAGE[language] },
    body: JSON.stringify(body),
  });
  const payload = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, payload as ApiErrorBody | null);
  return payload as PostResult<P>;
}

/** A GET that remembers the last ETag: an unchanged answer comes back as 304 and costs nothing. */
export function conditionalGetter<P extends GetPath>(path: P): () => Promise<GetResult<P> | null> {
  let etag: string | null = null;
  let last: GetResult<P> | null = null;
  return async () => {
    const response = await send(path, { headers: etag ? { "If-None-Match": etag } : {} });
    if (response.status === 304) return last;
    if (!response.ok) throw new ApiError(response.status, null);
    etag = response.headers.get("ETag");
    last = (await response.json()) as GetResult<P>;
    return last;
  };
}
