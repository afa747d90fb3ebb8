/** The kernel's events, in the order a matched request meets them. */
export const KernelEvents = {
  REQUEST: 'kernel.request',
  CONTROLLER: 'kernel.controller',
  CONTROLLER_ARGUMENTS: 'kernel.controller_arguments',
  VIEW: 'kernel.view',
  RESPONSE: 'kernel.response',
  FINISH_REQUEST: 'kernel.finish_request',
  EXCEPTION: 'kernel.exception',
  TERMINATE: 'kernel.terminate',
} as const;

export type KernelEventName = (typeof KernelEvents)[keyof typeof KernelEvents];
