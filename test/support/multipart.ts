// A small multipart/form-data reader for the capability fakes: the fields and files the openai
// client and fetch's FormData send (audio transcriptions, image edits, video jobs). Test-only.

export interface FormPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string | undefined): FormPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? "");
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const chunk = body.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = chunk.indexOf("\r\n\r\n");
    const head = chunk.subarray(0, split).toString("utf8");
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? "";
    parts.push({
      name: /name="([^"]*)"/.exec(disposition)?.[1] ?? "",
      filename: /filename="([^"]*)"/.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? null,
      data: chunk.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

export function field(parts: readonly FormPart[], name: string): string | undefined {
  return parts.find((p) => p.name === name)?.data.toString("utf8");
}
