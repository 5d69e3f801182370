import { useRef } from "react";
import { Form } from "react-router";
import { FormErrors, FormNotice, SubmitButton } from "~/components/ui/form";
import { QuoteMessageThread, type QuoteThreadMessage } from "./quote-messages";
import { StaffPanel } from "./staff-quote-panel";
import { useSentCount } from "./use-sent-count";

// The conversation with the customer on the staff quote page, and the reply form once the quote
// has been sent (before that the customer cannot see it, so there is no one to write to).

export interface StaffQuoteMessagesProps {
  messages: QuoteThreadMessage[];
  sentRevision: number | null;
  /** The page's bare address. */
  action: string;
  /** The outcome of the last message posted from this page; a refused one keeps what was written. */
  reply?: { ok: boolean; message?: string; body?: string };
}

export function StaffQuoteMessages({ messages, sentRevision, action, reply }: StaffQuoteMessagesProps) {
  const refused = reply !== undefined && !reply.ok;
  // Starts empty after each message posted here, and only then: data reloaded by a live update keeps the draft.
  const sentMessages = useSentCount("mensaje");
  // The text the form starts with, fixed when it mounts: a live reload drops the action's reply,
  // and a refused message must not vanish with it.
  const start = useRef({ key: sentMessages, body: "" });
  if (start.current.key !== sentMessages) start.current = { key: sentMessages, body: refused ? (reply.body ?? "") : "" };
  return (
    <StaffPanel title="Mensajes con el cliente" id="seccion-mensajes">
      <QuoteMessageThread messages={messages} emptyText="Todavía no hay mensajes en esta cotización." />
      {sentRevision === null ? (
        <p className="mt-4 text-sm text-acero-700">Podrá escribirle al cliente cuando le envíe la cotización; antes no puede verla.</p>
      ) : (
        <Form method="post" action={action} className="mt-4 space-y-3" key={sentMessages}>
          <label htmlFor="mensaje" className="block text-sm font-semibold text-acero-900">
            Responder al cliente
          </label>
          <textarea
            id="mensaje"
            name="body"
            rows={4}
            maxLength={5000}
            required
            defaultValue={start.current.body}
            aria-invalid={refused ? true : undefined}
            aria-describedby={refused ? "mensaje-error mensaje-ayuda" : "mensaje-ayuda"}
            className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
          />
          <p id="mensaje-ayuda" className="text-xs text-acero-600">
            El cliente lo ve en su página de la cotización y recibe un aviso por correo.
          </p>
          {reply ? (
            reply.ok ? (
              <FormNotice>{reply.message}</FormNotice>
            ) : (
              <FormErrors errors={[reply.message ?? "Escriba su mensaje."]} id="mensaje-error" />
            )
          ) : null}
          <SubmitButton intent="mensaje" pendingLabel="Enviando…" className="btn-dark py-2">
            Enviar mensaje
          </SubmitButton>
        </Form>
      )}
    </StaffPanel>
  );
}
