import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** One field-level validation message (DESIGN §2). */
export interface FieldError {
  field: string;
  message: string;
}

const TITLES: Record<number, string> = {
  400: "Invalid request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable archive",
  429: "Too many requests",
  500: "Internal error",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/**
 * The one error of the service. Thrown anywhere (domain code included), it becomes an
 * RFC 9457 problem+json response in `onError`. `code` is the machine-readable problem type.
 */
export class ApiError extends HTTPException {
  constructor(
    readonly httpStatus: ContentfulStatusCode,
    readonly code: string,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(httpStatus, { message: detail });
  }
}

export function problemBody(
  status: number,
  code: string,
  detail: string,
  requestId: string,
  extra: Record<string, unknown> = {},
) {
  return {
    type: `urn:capture-verify:problem:${code}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    instance: requestId,
    ...extra,
  };
}

export function problemResponse(c: Context, err: ApiError): Response {
  const body = problemBody(err.httpStatus, err.code, err.detail, c.get("requestId") ?? "", {
    ...(err.extra.errors ? { errors: err.extra.errors } : {}),
    ...err.extra.body,
  });
  return new Response(JSON.stringify(body), {
    status: err.httpStatus,
    headers: { "content-type": "application/problem+json", ...err.extra.headers },
  });
}

/** `onError` for the app: known errors as problems, anything else a 500 with the request id only. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return problemResponse(c, err);
  if (err instanceof HTTPException) {
    const unreadable = unreadableBody(err);
    if (unreadable) return problemResponse(c, unreadable);
    const status = err.status as ContentfulStatusCode;
    const code = status === 413 ? "payload-too-large" : "http-error";
    return problemResponse(c, new ApiError(status, code, err.message || TITLES[status] || "Error"));
  }
  console.error("unhandled error", c.get("requestId"), err);
  return problemResponse(
    c,
    new ApiError(500, "internal", "An internal error occurred. Quote the request id to support."),
  );
}

/**
 * Hono's validators refuse a body they cannot parse with a bare HTTPException 400 carrying the
 * parser's own message. Callers get the validation problem every other 400 is, with the field:
 * the multipart part `file` (the scanner's only part) or the JSON `body`.
 */
function unreadableBody(err: HTTPException): ApiError | null {
  if (err.status !== 400) return null;
  if (/^Malformed FormData/i.test(err.message)) {
    return invalid(
      [{ field: "file", message: "the multipart/form-data body could not be read; send the ZIP as the part file" }],
      "The multipart body is malformed.",
    );
  }
  if (/^Malformed JSON/i.test(err.message))
    return invalid([{ field: "body", message: "is not valid JSON" }], "The JSON body is malformed.");
  return invalid([{ field: "body", message: "could not be read" }]);
}

export const invalid = (errors: FieldError[], detail = "The request is invalid.") =>
  new ApiError(400, "validation-error", detail, { errors });
export const notFound = (what: string) => new ApiError(404, "not-found", `${what} was not found.`);
