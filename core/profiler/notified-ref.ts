/**
 * On a profile's `Notified event` log record: where its call is in the events panel, [event, listener].
 * A symbol, so that no view nor JSON.stringify sees it; the store writes such a record as a reference
 * to the events panel (storage/stored-form.ts). Set by the log collector from the request's trace.
 */
export const NOTIFIED_REF = Symbol('appkernel.notifiedRef');

export type NotifiedRef = [event: number, listener: number];
