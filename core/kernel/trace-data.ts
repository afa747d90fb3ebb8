/** What the kernel records of a request while it runs: listener calls, phases, the firewall's decision. */

export interface ListenerCall {
  listener: string;
  /** ms */
  duration: number;
  stoppedPropagation: boolean;
  /** ms since the request started; absent in profiles recorded before calls kept their start */
  start?: number;
}

export interface Phase {
  name: 'routing' | 'firewall' | 'controller' | 'view' | 'response' | 'exception' | string;
  /** ms since the request started */
  start: number;
  duration: number;
}

export interface SecurityData {
  decision: 'allowed' | 'denied' | 'none';
  /** the rule that decided, if any */
  rule: string | null;
  message: string | null;
}
