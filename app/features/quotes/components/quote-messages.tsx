import { formatDateTime } from "~/lib/format";

// The customer ↔ Forja conversation on a quote, oldest first. Props only (staff and customer pages);
// each message says who wrote it in words, not only by its colour or side.

export interface QuoteThreadMessage {
  id: string;
  authorName: string;
  fromStaff: boolean;
  body: string;
  createdAt: Date | string;
}

export function QuoteMessageThread({ messages, emptyText = "Todavía no hay mensajes." }: { messages: QuoteThreadMessage[]; emptyText?: string }) {
  if (messages.length === 0) return <p className="text-sm text-acero-700">{emptyText}</p>;
  return (
    <ol className="space-y-3">
      {messages.map((message) => (
        <li
          key={message.id}
          className={`rounded-md border p-3 text-sm ${message.fromStaff ? "border-forja-100 bg-forja-50 sm:ml-8" : "border-acero-200 bg-white sm:mr-8"}`}
        >
          <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-acero-700">
            <span className="font-semibold text-acero-900">{message.authorName}</span>
            <span>{message.fromStaff ? "Equipo Forja" : "Cliente"}</span>
            <time dateTime={new Date(message.createdAt).toISOString()}>{formatDateTime(message.createdAt)}</time>
          </p>
          <p className="mt-1 whitespace-pre-wrap text-acero-900">{message.body}</p>
        </li>
      ))}
    </ol>
  );
}
