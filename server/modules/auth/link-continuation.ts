/**
 * What a mailed link goes on to once it is used: an app's sign-in that was waiting on the hosted pages
 * when the mail was asked for (an OpenID Connect authorization request, or a page of the hosted pages),
 * and which browser asked. Stored with the link's token; the account core keeps it without reading it
 * (the hosted pages decide, modules/hosted/continuation.service.ts).
 */
export interface LinkContinuation {
  interactionId: string | null;
  returnTo: string | null;
  /** SHA-256 of the asking browser's hosted flow cookie. */
  flowBinding: string | null;
}

export const NO_CONTINUATION: LinkContinuation = Object.freeze({ interactionId: null, returnTo: null, flowBinding: null });

/** A mailed link that was just used: whose address it proved, and what it continues. */
export interface ProvenLink {
  message: string;
  userId: string;
  continuation: LinkContinuation;
}

export function continuationOfRow(row: { interaction_id: string | null; return_to: string | null; flow_binding: string | null }): LinkContinuation {
  return { interactionId: row.interaction_id, returnTo: row.return_to, flowBinding: row.flow_binding };
}

export function continuationColumns(continuation: LinkContinuation) {
  return { interaction_id: continuation.interactionId, return_to: continuation.returnTo, flow_binding: continuation.flowBinding };
}
