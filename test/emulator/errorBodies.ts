import type { ServerResponse } from "node:http";

export interface ServiceErrorFields {
  message: string;
  type: string;
  code: string | null;
  param?: string | null;
}

/** One-api / new-api style relays append the request id so users can quote it to support. */
export function messageWithRequestId(message: string, requestId: string): string {
  return `${message} (request id: ${requestId})`;
}

export function errorEnvelope(fields: ServiceErrorFields, requestId: string): { error: Required<ServiceErrorFields> } {
  return {
    error: {
      message: messageWithRequestId(fields.message, requestId),
      type: fields.type,
      code: fields.code,
      param: fields.param ?? null,
    },
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...extraHeaders,
  });
  response.end(text);
}

export function sendServiceError(response: ServerResponse, status: number, fields: ServiceErrorFields, requestId: string): void {
  sendJson(response, status, errorEnvelope(fields, requestId));
}
