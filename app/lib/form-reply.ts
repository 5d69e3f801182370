import type { Submission, SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { failureHeaders, failureMessages, failureStatus, type Failure } from "./result";

// Routes own the HTTP side of a form: a domain Failure becomes conform's reply (what the person
// typed comes back with the messages), a status and headers. Fields named in hideFields (passwords)
// are never sent back.

export interface FormFailureReply {
  result: SubmissionResult<string[]>;
  status: number;
  headers: Record<string, string>;
}

export function replyToFailure(parsed: Submission<unknown>, failure: Failure, options: { hideFields?: string[] } = {}): FormFailureReply {
  const { formErrors, fieldErrors } = failureMessages(failure);
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  return {
    result: parsed.reply({ formErrors, ...(hasFieldErrors ? { fieldErrors } : {}), hideFields: options.hideFields }),
    status: failureStatus(failure),
    headers: failureHeaders(failure),
  };
}

/** The action's answer to a refused form: `{ ...extra, result }` with the failure's status and headers. */
export function formFailure<Extra extends object = object>(parsed: Submission<unknown>, failure: Failure, options: { hideFields?: string[]; extra?: Extra } = {}) {
  const reply = replyToFailure(parsed, failure, options);
  return data({ ...(options.extra ?? ({} as Extra)), result: reply.result }, { status: reply.status, headers: reply.headers });
}
